import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTwilioStandIn, signTwilioRequest, type TwilioStandIn } from '../../../../e2e/support/stand-ins/twilio.js';
import { deliverDueMessages } from '../../src/modules/outbox/outbox-worker.js';
import { twilioSignature } from '../../src/modules/messaging/twilio-signature.js';
import { loadSmsProvider } from '../../src/providers/sms/load-sms.js';
import { loadConfig } from '../../src/config.js';
import { ProviderSendError } from '../../src/providers/sms/types.js';
import type { AppContext } from '../../src/context.js';
import { codeIn, insertTestLink } from '../support/auth.js';
import { apiHeaders, createTestApp } from '../support/context.js';
import { freePort } from '../support/ports.js';

/**
 * The production rehearsal's Twilio (decision 0189): the real SMS adapter sends to the stand-in of Twilio's Messages
 * API (form body, Basic auth), and the stand-in's status callbacks, signed as Twilio signs them, reach our real webhook
 * route over HTTP and move the message's delivery state.
 */
let twilio: TwilioStandIn;
let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;
let publicUrl: string;

beforeAll(async () => {
  twilio = await startTwilioStandIn({ callbackDelayMs: 20 });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  ({ app, ctx, close } = await createTestApp({
    PAYLINK_MODE: 'sandbox',
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: twilio.from,
    TWILIO_API_BASE_URL: twilio.baseUrl,
  }));
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await twilio?.stop();
  await close?.();
});

const deliveryOf = async (sid: string) =>
  (
    await ctx.db.query<{ delivery_status: string | null }>(
      'select delivery_status from outbox_message where provider_id = $1',
      [sid],
    )
  ).rows[0]?.delivery_status;

describe('Twilio adapter ↔ the Messages API stand-in', () => {
  it('a sign-in code goes out as Twilio expects it, and the signed callbacks mark it delivered', async () => {
    const linkId = await insertTestLink(ctx.db, { phone: '(555) 201-4567' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sms/send',
      headers: apiHeaders(ctx),
      payload: { linkId },
    });
    expect(res.statusCode).toBe(200);
    expect(await deliverDueMessages(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });

    const m = twilio.latestTo('+15552014567')!;
    expect(m).toMatchObject({ to: '+15552014567', from: twilio.from });
    expect(m.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(codeIn(m.body)).toMatch(/^\d{6}$/);
    expect(m.statusCallback).toBe(`${publicUrl}/api/webhooks/twilio/status`);

    const callbacks = await twilio.waitForCallbacks(m.sid);
    expect(callbacks.map((c) => [c.status, c.httpStatus])).toEqual([
      ['sent', 204],
      ['delivered', 204],
    ]);
    expect(await deliveryOf(m.sid)).toBe('delivered');
  });

  it('a callback not signed with our auth token is refused and changes nothing', async () => {
    const linkId = await insertTestLink(ctx.db, { phone: '(555) 201-7777' });
    await app.inject({ method: 'POST', url: '/api/auth/sms/send', headers: apiHeaders(ctx), payload: { linkId } });
    await deliverDueMessages(ctx);
    const m = twilio.latestTo('+15552017777')!;
    await twilio.waitForCallbacks(m.sid);
    const url = `${publicUrl}/api/webhooks/twilio/status`;
    const params = { MessageSid: m.sid, MessageStatus: 'failed', ErrorCode: '30006', AccountSid: twilio.accountSid };
    const post = (signature: string | undefined) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature ? { 'x-twilio-signature': signature } : {}),
        },
        body: new URLSearchParams(params).toString(),
      });
    expect((await post(undefined)).status).toBe(403);
    expect((await post(signTwilioRequest('not-our-token', url, params))).status).toBe(403);
    // Signed for another URL (Twilio signs the URL it called): refused too.
    expect((await post(signTwilioRequest(twilio.authToken, `${url}?x=1`, params))).status).toBe(403);
    expect(await deliveryOf(m.sid)).toBe('delivered');
    // The same request signed properly is taken (a late "failed" cannot undo "delivered", so still delivered).
    expect((await post(signTwilioRequest(twilio.authToken, url, params))).status).toBe(204);
  });

  it("the stand-in's signature is Twilio's documented algorithm, and the product's verifier agrees with it", () => {
    // The test vector of Twilio's helper library (twilio-node's webhook tests: auth token 12345, the myapp.php URL).
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    };
    expect(signTwilioRequest('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(twilioSignature('12345', url, new URLSearchParams(params))).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('wrong credentials: the stand-in answers 401 (Twilio 20003) and the adapter gives up for good', async () => {
    const config = loadConfig({
      PAYLINK_MODE: 'sandbox',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: 'not-the-token',
      TWILIO_FROM: twilio.from,
      TWILIO_API_BASE_URL: twilio.baseUrl,
    });
    const sms = loadSmsProvider(config);
    const before = twilio.messages.length;
    const e = (await sms.send({ to: '5552014567', body: 'x' }).catch((err: unknown) => err)) as ProviderSendError;
    expect(e).toBeInstanceOf(ProviderSendError);
    expect(e.message).toContain('Twilio 401 (20003)');
    expect(e.permanent).toBe(true);
    expect(twilio.messages.length).toBe(before);
  });
});
