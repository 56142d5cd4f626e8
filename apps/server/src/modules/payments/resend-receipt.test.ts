import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';

/**
 * A completed link's "Resend receipt" (issue 29, item 4; decision 0219): paid through the sandbox gateway, then
 * resent by staff through the real route, outbox and audit.
 */
let env: PaymentTestEnv;
const auth = async (role: 'coordinator' | 'billing' | 'admin') => ({
  authorization: `Bearer ${await staffToken(env.ctx.db, { email: `${role}@example.com`, role })}`,
});

beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

const resend = async (linkId: string, headers: Record<string, string>) =>
  env.app.inject({ method: 'POST', url: `/api/admin/links/${linkId}/receipt`, headers });

async function paidLink(email: string) {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 700, email });
  const t = await requestSessionToken(env, link);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  return link;
}

const receipts = async (linkId: string) =>
  (
    await env.ctx.db.query<{ channel: string; to_address: string }>(
      `select channel, to_address from outbox_message where link_id = $1 and kind = 'receipt' order by id`,
      [linkId],
    )
  ).rows;

describe('POST /api/admin/links/:id/receipt', () => {
  it('sends the receipt again by the first one’s rules, audited with the staff member, once in ten minutes', async () => {
    const link = await paidLink('maria@example.com');
    expect(await receipts(link.linkId)).toHaveLength(1);

    const r = await resend(link.linkId, await auth('coordinator'));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toEqual({ channel: 'email', to: expect.stringMatching(/^m.*@example\.com$/) });
    const sent = await receipts(link.linkId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ channel: 'email', to_address: 'maria@example.com' });
    const audit = await env.ctx.db.query<{ actor_type: string; details: { channel: string } }>(
      `select actor_type, details from audit_event where link_id = $1 and action = 'payment.receipt_resent'`,
      [link.linkId],
    );
    expect(audit.rows).toEqual([
      expect.objectContaining({ actor_type: 'staff', details: expect.objectContaining({ channel: 'email' }) }),
    ]);

    const again = await resend(link.linkId, await auth('billing'));
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ error: 'rate_limited' });
    expect(again.json().retryAfterSeconds).toBeGreaterThan(500);
    expect(await receipts(link.linkId)).toHaveLength(2);
  });

  it('refuses a link that is not paid (409) and one with nowhere to send (409), sending nothing', async () => {
    const unpaid = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    const r = await resend(unpaid.linkId, await auth('admin'));
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('not_paid');

    const link = await paidLink('gone@example.com');
    // No e-mail on file, and the phone replied STOP.
    await env.ctx.db.query(`update link set email = '', phone = '+13055559101' where id = $1`, [link.linkId]);
    await env.ctx.db.query(
      `insert into message_opt_out (channel, address, source, keyword) values ('sms', '+13055559101', 'sms', 'STOP')`,
    );
    const none = await resend(link.linkId, await auth('billing'));
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json().error).toBe('no_receipt_address');
    expect(await receipts(link.linkId)).toHaveLength(1);
  });
});
