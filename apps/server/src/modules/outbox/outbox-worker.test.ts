import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import type { EmailProvider } from '../../providers/email/types.js';
import { ProviderSendError, type SmsProvider } from '../../providers/sms/types.js';
import { createTestApp } from '../../../test/support/context.js';
import { enqueueMessage } from '../../messages/index.js';
import { backoffSeconds, deliverDueMessages } from './outbox-worker.js';

let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, close } = await createTestApp());
});
afterAll(async () => close());
beforeEach(async () => {
  await ctx.db.query('delete from outbox_message');
});

/** An SMS gateway that is down for the first `failures` calls, then accepts (a sandbox-style edge fake). */
function flakySms(failures: number, permanent = false): SmsProvider & { calls: { to: string; body: string }[] } {
  const calls: { to: string; body: string }[] = [];
  return {
    name: 'sandbox',
    calls,
    async send(msg) {
      calls.push(msg);
      if (calls.length <= failures) throw new ProviderSendError('503 Service Unavailable', permanent);
      return { providerId: `SM${calls.length}` };
    },
  };
}

const withSms = (sms: SmsProvider): AppContext => ({ ...ctx, providers: { ...ctx.providers, sms } });
const row = async (id: string) =>
  (
    await ctx.db.query<{
      status: string;
      attempts: number;
      last_error: string | null;
      provider_id: string | null;
      sent_at: Date | null;
      wait: number;
    }>(
      `select status, attempts, last_error, provider_id, sent_at,
         round(extract(epoch from next_attempt_at - now()))::int as wait from outbox_message where id = $1`,
      [id],
    )
  ).rows[0]!;
/** Time travel: make the message due now (instead of sleeping through the backoff). */
const makeDue = (id: string) => ctx.db.query(`update outbox_message set next_attempt_at = now() where id = $1`, [id]);

describe('outbox worker', () => {
  it('a message is only sent if the enqueuing transaction commits', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await enqueueMessage(tx, { channel: 'sms', to: '5551110000', text: 'hello', kind: 'test' });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    const sms = flakySms(0);
    expect(await deliverDueMessages(withSms(sms))).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(sms.calls).toHaveLength(0);
  });

  it('retries with exponential backoff through a provider outage, then marks the message sent', async () => {
    const { id } = await ctx.db.transaction((tx) =>
      enqueueMessage(tx, { channel: 'sms', to: '5551110001', text: 'Your code is 123456', kind: 'signin-code' }),
    );
    const sms = flakySms(3);
    const w = withSms(sms);

    expect(await deliverDueMessages(w)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let r = await row(id);
    expect(r).toMatchObject({ status: 'pending', attempts: 1, last_error: '503 Service Unavailable' });
    expect(r.wait).toBeGreaterThanOrEqual(29);
    expect(r.wait).toBeLessThanOrEqual(30);
    // not due yet: a second pass leaves it alone
    expect(await deliverDueMessages(w)).toEqual({ sent: 0, retrying: 0, failed: 0 });

    await makeDue(id);
    await deliverDueMessages(w);
    r = await row(id);
    expect(r.attempts).toBe(2);
    expect(r.wait).toBeGreaterThanOrEqual(59);
    expect(r.wait).toBeLessThanOrEqual(60);

    await makeDue(id);
    await deliverDueMessages(w);
    expect((await row(id)).wait).toBeGreaterThanOrEqual(119);

    await makeDue(id);
    expect(await deliverDueMessages(w)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    r = await row(id);
    expect(r).toMatchObject({ status: 'sent', attempts: 4, last_error: null, provider_id: 'SM4' });
    expect(r.sent_at).not.toBeNull();
    expect(sms.calls.map((c) => c.to)).toEqual(Array(4).fill('5551110001'));
    // sent messages are not sent again
    await deliverDueMessages(w);
    expect(sms.calls).toHaveLength(4);
  });

  it('gives up after OUTBOX_MAX_ATTEMPTS, and at once on a permanent refusal', async () => {
    const { id } = await ctx.db.transaction((tx) =>
      enqueueMessage(tx, { channel: 'sms', to: '5551110002', text: 'x', kind: 'test' }),
    );
    const down = withSms(flakySms(1000));
    for (let i = 1; i <= ctx.config.OUTBOX_MAX_ATTEMPTS; i++) {
      await makeDue(id);
      await deliverDueMessages(down);
    }
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: ctx.config.OUTBOX_MAX_ATTEMPTS });

    const { id: bad } = await ctx.db.transaction((tx) =>
      enqueueMessage(tx, { channel: 'sms', to: 'not a number', text: 'x', kind: 'test' }),
    );
    expect(await deliverDueMessages(withSms(flakySms(1, true)))).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await row(bad)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('a message claimed by a worker that died is retried after its lease', async () => {
    const { id } = await ctx.db.transaction((tx) =>
      enqueueMessage(tx, { channel: 'sms', to: '5551110003', text: 'x', kind: 'test' }),
    );
    // what a worker does before sending; then it "crashes"
    await ctx.db.query(
      `update outbox_message set attempts = attempts + 1, next_attempt_at = now() + interval '5 minutes' where id = $1`,
      [id],
    );
    const sms = flakySms(0);
    expect((await deliverDueMessages(withSms(sms))).sent).toBe(0);
    await makeDue(id);
    expect((await deliverDueMessages(withSms(sms))).sent).toBe(1);
  });

  it('two workers never send the same message', async () => {
    for (let i = 0; i < 30; i++) {
      await ctx.db.transaction((tx) =>
        enqueueMessage(tx, { channel: 'sms', to: `55511120${i}`, text: 'x', kind: 'test' }),
      );
    }
    const sms = flakySms(0);
    const [a, b] = await Promise.all([deliverDueMessages(withSms(sms)), deliverDueMessages(withSms(sms))]);
    const c = await deliverDueMessages(withSms(sms));
    expect(a.sent + b.sent + c.sent).toBe(30);
    expect(new Set(sms.calls.map((m) => m.to)).size).toBe(30);
    expect(sms.calls).toHaveLength(30);
  });

  it('e-mails go out with the practice as sender name', async () => {
    const sent: Parameters<EmailProvider['send']>[0][] = [];
    const email: EmailProvider = {
      name: 'sandbox',
      async send(m) {
        sent.push(m);
        return { providerId: 'e1' };
      },
    };
    await ctx.db.transaction((tx) =>
      enqueueMessage(tx, {
        channel: 'email',
        to: 'a@example.com',
        subject: 'Hi',
        text: 't',
        html: '<p>t</p>',
        kind: 'test',
      }),
    );
    await deliverDueMessages({ ...ctx, providers: { ...ctx.providers, email } });
    expect(sent).toEqual([
      { to: 'a@example.com', fromName: ctx.config.senderName, subject: 'Hi', text: 't', html: '<p>t</p>' },
    ]);
  });

  it('backoff doubles from 30 s and stops at an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffSeconds)).toEqual([30, 60, 120, 240, 3600, 3600]);
  });
});
