import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { deliverDueMessages } from '../outbox/outbox-worker.js';
import { coordinator, twilioForm } from '../../../test/support/messaging.js';
import { runDueReminders } from './run-reminders.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;
let staff: Awaited<ReturnType<typeof coordinator>>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp({
    TWILIO_AUTH_TOKEN: 'test-auth-token',
    PUBLIC_URL: 'https://pay.example.com',
    REMINDER_QUIET_HOURS: 'off',
  }));
  staff = await coordinator(ctx);
});
afterAll(async () => close());

const send = (id: string, channel: 'sms' | 'email') =>
  app.inject({ method: 'POST', url: `/api/admin/links/${id}/send`, headers: staff.headers, payload: { channel } });
const delivery = async (messageId: string) =>
  (
    await ctx.db.query<{ delivery_status: string | null; delivery_error: string | null; provider_id: string }>(
      'select delivery_status, delivery_error, provider_id from outbox_message where id = $1',
      [messageId],
    )
  ).rows[0]!;
const optOuts = async () =>
  (await ctx.db.query<{ channel: string; address: string; keyword: string | null }>('select * from message_opt_out'))
    .rows;
const STATUS = '/api/webhooks/twilio/status';
const INBOUND = '/api/webhooks/twilio/sms';

describe('Twilio status callbacks', () => {
  it('a signed callback moves the delivery status forward, never back; it lands on the link timeline', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 301-0001' });
    const { id: messageId } = (await send(id, 'sms')).json() as { id: string };
    await deliverDueMessages(ctx);
    // pretend Twilio took it: queued, then callbacks
    await ctx.db.query(
      `update outbox_message set provider = 'twilio', provider_id = 'SM1', delivery_status = 'queued' where id = $1`,
      [messageId],
    );
    const cb = (status: string, extra: Record<string, string> = {}) =>
      app.inject(twilioForm(ctx, STATUS, { MessageSid: 'SM1', MessageStatus: status, AccountSid: 'AC1', ...extra }));
    expect((await cb('sent')).statusCode).toBe(204);
    expect((await delivery(messageId)).delivery_status).toBe('sent');
    expect((await cb('delivered')).statusCode).toBe(204);
    expect((await cb('sent')).statusCode).toBe(204); // late and out of order
    expect((await delivery(messageId)).delivery_status).toBe('delivered');
    const timeline = await ctx.db.query<{ details: { status: string } }>(
      `select details from audit_event where link_id = $1 and action = 'message.delivery'`,
      [id],
    );
    expect(timeline.rows.map((r) => r.details.status)).toEqual(['delivered']);
    // unknown message ids are ignored
    expect(
      (await app.inject(twilioForm(ctx, STATUS, { MessageSid: 'SMnope', MessageStatus: 'failed' }))).statusCode,
    ).toBe(204);
  });

  it('an unsigned or wrongly signed callback is refused with 403 and changes nothing', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 301-0002' });
    const { id: messageId } = (await send(id, 'sms')).json() as { id: string };
    await ctx.db.query(`update outbox_message set provider_id = 'SM2', delivery_status = 'queued' where id = $1`, [
      messageId,
    ]);
    const fields = { MessageSid: 'SM2', MessageStatus: 'failed', ErrorCode: '30008' };
    for (const sign of ['none', 'wrong', { token: 'test-auth-token-but-longer' }] as const) {
      const res = await app.inject(twilioForm(ctx, STATUS, fields, sign));
      expect(res.statusCode).toBe(403);
    }
    // signed for another URL (a different host than PUBLIC_URL) is wrong too
    const other = twilioForm(ctx, STATUS, fields);
    const tampered = { ...other, payload: `${other.payload}&Extra=1` };
    expect((await app.inject(tampered)).statusCode).toBe(403);
    expect((await delivery(messageId)).delivery_status).toBe('queued');
  });
});

describe('consent on the inbound SMS webhook', () => {
  it('a signed inbound message with a very long From is a 400 that changes nothing (issue 26)', async () => {
    const before = await optOuts();
    const res = await app.inject(twilioForm(ctx, INBOUND, { From: `+1${'5'.repeat(5000)}`, Body: 'STOP' }));
    expect(res.statusCode, res.body).toBe(400);
    expect(await optOuts()).toEqual(before);
  });

  it('STOP opts out: link sends refused, reminders stop at once, audited; START opts back in', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 301-0003' });
    expect((await send(id, 'sms')).statusCode).toBe(201);
    const res = await app.inject(
      twilioForm(ctx, INBOUND, { From: '+15553010003', To: '+15550000000', Body: ' stop ' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/xml/);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>'); // Twilio answers STOP itself
    expect(await optOuts()).toEqual([
      expect.objectContaining({ channel: 'sms', address: '+15553010003', keyword: 'STOP' }),
    ]);
    const next = await ctx.db.query<{ next_check_at: Date | null }>(
      'select next_check_at from link_reminder where link_id = $1',
      [id],
    );
    expect(next.rows[0]!.next_check_at).toBeNull();
    const refused = await send(id, 'sms');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'opted_out' });
    // no reminder even when one is long due
    await ctx.db.query(`update link_reminder set next_check_at = now() where link_id = $1`, [id]);
    await runDueReminders(ctx, { now: new Date(Date.now() + 5 * 86400_000) });
    const reminders = await ctx.db.query(`select 1 from outbox_message where link_id = $1 and kind = 'link-reminder'`, [
      id,
    ]);
    expect(reminders.rowCount).toBe(0);
    // sign-in codes the patient asks for still go out
    const code = await app.inject({
      method: 'POST',
      url: '/api/auth/sms/send',
      headers: { 'x-api-key': ctx.config.apiKey },
      payload: { linkId: id },
    });
    expect(code.statusCode).toBe(200);
    const audit = await ctx.db.query<{ details: { address: string; keyword: string } }>(
      `select details from audit_event where action = 'messaging.opted_out'`,
    );
    expect(audit.rows[0]!.details).toMatchObject({ address: '+*******0003', keyword: 'STOP' });
    // staff see it
    const list = await app.inject({ method: 'GET', url: '/api/admin/messaging/opt-outs', headers: staff.headers });
    expect(list.json()).toMatchObject({
      optOuts: [{ channel: 'sms', address: '+15553010003', source: 'sms-keyword' }],
    });

    await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010003', Body: 'START' }));
    expect(await optOuts()).toEqual([]);
    expect((await send(id, 'sms')).statusCode).toBe(201);
  });

  it('Spanish keywords opt out with a Spanish answer; HELP answers with the practice name and phone', async () => {
    const res = await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010004', Body: 'Alto' }));
    expect(res.body).toContain('<Message>Bella Vista Plastic Surgery: no recibira mas mensajes');
    expect(await optOuts()).toEqual([expect.objectContaining({ address: '+15553010004', keyword: 'ALTO' })]);
    for (const kw of ['PARAR', 'baja', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit']) {
      await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010005', Body: kw }));
      expect((await optOuts()).some((o) => o.keyword === kw.toUpperCase())).toBe(kw === 'PARAR');
    }
    const help = await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010006', Body: 'HELP' }));
    expect(help.body).toContain(
      '<Message>Bella Vista Plastic Surgery: messages about your payment link. Help: (555) 010-0123. Reply STOP to opt out.</Message>',
    );
    const other = await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010006', Body: 'Can I pay tomorrow?' }));
    expect(other.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });

  it('an unsigned or wrongly signed STOP is refused with 403 and records nothing', async () => {
    await ctx.db.query('delete from message_opt_out');
    for (const sign of ['none', 'wrong'] as const) {
      const res = await app.inject(twilioForm(ctx, INBOUND, { From: '+15553010007', Body: 'STOP' }, sign));
      expect(res.statusCode).toBe(403);
    }
    expect(await optOuts()).toEqual([]);
  });
});

describe('e-mail one-click unsubscribe (RFC 8058)', () => {
  it('GET asks (mail scanners open links); the one-click POST opts the address out; a forged token is refused', async () => {
    const id = await insertTestLink(ctx.db, { method: 'email', email: 'pat@example.com' });
    const { id: messageId } = (await send(id, 'email')).json() as { id: string };
    const headers = (
      await ctx.db.query<{ headers: Record<string, string> }>('select headers from outbox_message where id = $1', [
        messageId,
      ])
    ).rows[0]!.headers;
    const url = new URL(headers['List-Unsubscribe']!.slice(1, -1));
    expect(url.origin).toBe('https://pay.example.com');
    const path = `${url.pathname}${url.search}`;
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect(await optOuts()).toEqual([]);
    const post = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('pat@example.com will get no more reminders');
    expect(await optOuts()).toEqual([expect.objectContaining({ channel: 'email', address: 'pat@example.com' })]);
    expect((await send(id, 'email')).json()).toMatchObject({ error: 'opted_out' });
    const forged = path.replace(/t=[^.]+/, `t=${Buffer.from('other@example.com').toString('base64url')}`);
    expect((await app.inject({ method: 'POST', url: forged, payload: '' })).statusCode).toBe(400);
  });
});
