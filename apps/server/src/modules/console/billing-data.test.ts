import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';

/**
 * What a billing manager reads on the payments screen and in its CSV (issue 29, item 4; decision 0219), against the
 * real database. Payments and their attempts are written as the patient side leaves them.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let billing: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: 'America/New_York', LOG_LEVEL: 'error' });
  billing = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'bill@example.com', role: 'billing' })}` };
});
afterAll(async () => t?.close());

const q = (text: string, params: unknown[] = []) => t.ctx.db.query(text, params);

async function linkWithPayment(first: string, cents: number): Promise<{ linkId: string; paymentId: number }> {
  const { link } = await seedLink(t.ctx, { firstName: first, lastName: 'Billing' });
  const p = await q(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents) values ($1, 1, 1, $2) returning id`,
    [link.id, cents],
  );
  return { linkId: link.id, paymentId: (p.rows[0] as { id: number }).id };
}

async function attempt(linkId: string, paymentId: number, status: string, n: number): Promise<void> {
  const id = `${linkId.replace(/[^A-Za-z0-9]/g, '')}x${n}`.padEnd(16, '0');
  await q(
    `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status, session_token, transaction_id)
     values ($1, $2, $3, 50000, 'sandbox', $4, $5, $6)`,
    [
      id,
      linkId,
      paymentId,
      status,
      status === 'failed' ? null : `tok-${id}`,
      status === 'approved' ? `txn-${id}` : null,
    ],
  );
}

const failure = (linkId: string, kind: string) =>
  q(`insert into payment_log (link_id, payload) values ($1, $2)`, [linkId, JSON.stringify({ kind })]);

describe('payments report: attempted and failed attempts', () => {
  it('counts as attempted only links where a card was tried, and every failure the patient met', async () => {
    // An amount chosen, no card tried: not an attempt.
    const chosen = await linkWithPayment('Chosen', 40000);
    // A card declined, then failed 3-D Secure on the same (shared) token, then the gateway could not start a payment.
    const tried = await linkWithPayment('Tried', 50000);
    await attempt(tried.linkId, tried.paymentId, 'closed', 1);
    await failure(tried.linkId, 'declined');
    await failure(tried.linkId, 'threeDSFailed');
    await attempt(tried.linkId, tried.paymentId, 'failed', 2);
    // Paid at the first try; a second token handed out meanwhile was closed unused when the first was approved.
    const paid = await linkWithPayment('Paid', 70000);
    await attempt(paid.linkId, paid.paymentId, 'approved', 1);
    await attempt(paid.linkId, paid.paymentId, 'closed', 2);
    await q(
      `update payment set status = 'approved', transaction_id = 'TXN-PAID', card_brand = 'visa', card_last4 = '0002',
         paid_at = now() where id = $1`,
      [paid.paymentId],
    );

    const rep = await t.app.inject({ url: '/api/admin/payments/report', headers: billing });
    expect(rep.statusCode, rep.body).toBe(200);
    const body = rep.json();
    expect(body.totals).toHaveLength(1);
    expect(body.totals[0]).toMatchObject({ approvedCount: 1, attemptedCount: 1, attemptedAmount: 500 });
    const row = (id: string) => body.rows.find((r: { linkId: string }) => r.linkId === id);
    expect(row(chosen.linkId)).toBeUndefined();
    expect(body.total).toBe(2);
    expect(row(tried.linkId).failedAttempts).toBe(3);
    expect(row(paid.linkId).failedAttempts).toBe(0);

    const attempted = await t.app.inject({ url: '/api/admin/payments/report?status=attempted', headers: billing });
    expect(attempted.json().rows.map((r: { linkId: string }) => r.linkId)).toEqual([tried.linkId]);
  });
});

describe('payments CSV: refunded and net', () => {
  it('exports a $700 payment with $100 refunded as approved, partially refunded, 100.00 refunded, 600.00 net', async () => {
    const { linkId, paymentId } = await linkWithPayment('Refunded', 70000);
    await attempt(linkId, paymentId, 'approved', 1);
    await q(
      `update payment set status = 'approved', transaction_id = 'TXN-R', card_brand = 'visa', card_last4 = '0002',
         paid_at = now(), refunded_cents = 10000 where id = $1`,
      [paymentId],
    );
    const csv = await t.app.inject({ url: '/api/admin/payments/export', headers: billing });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.split('\r\n');
    const header = lines[0]!.split(',');
    // Appended: the columns before keep their places.
    expect(header.slice(0, 5)).toEqual(['link_id', 'patient_first_name', 'patient_last_name', 'status', 'amount_usd']);
    expect(header.slice(-3)).toEqual(['plan_balance_usd', 'refund_state', 'net_usd']);
    const mine = lines.find((l) => l.startsWith(`${linkId},`))!.split(',');
    const col = (name: string) => mine[header.indexOf(name)];
    expect(col('status')).toBe('approved');
    expect(col('amount_usd')).toBe('700.00');
    expect(col('refunded_usd')).toBe('100.00');
    expect(col('refund_state')).toBe('partially_refunded');
    expect(col('net_usd')).toBe('600.00');
    expect(col('failed_attempts')).toBe('0');
  });
});
