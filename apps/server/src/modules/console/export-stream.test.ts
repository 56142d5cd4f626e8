import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { csvField } from './payments-report.js';

/**
 * The payments CSV streamed from cursors (issue 30; decision 0228): thousands of rows (several batches of each
 * cursor) come out byte for byte as the in-memory export wrote them: every row built alone, the payments and the
 * instalment charges sorted newest first by the millisecond, a payment before an instalment of the same millisecond.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
const N = 3000;

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: 'America/New_York', LOG_LEVEL: 'error' });
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'stream@example.com', role: 'admin' })}` };
  const q = (sql: string) => t.ctx.db.query(sql);
  // Names that need quoting or the formula guard; paid times half a millisecond apart (two per millisecond).
  await q(`
    insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, procedure_description,
      sign_in_method, language, expires_at, created_at)
    select 'stream' || lpad(i::text, 20, '0'),
      case when i % 50 = 0 then '=cmd|'' /C calc''!A0' when i % 7 = 0 then 'Lopez, "Pat" ' || i else 'Pat' || i end,
      case when i % 11 = 0 then 'two' || chr(10) || 'lines' else 'Stream' end,
      '1 Main St', 'Austin', 'Texas', '73301', '5125550000', 'p' || i || '@example.com', 'Consultation', 'sms', 'en',
      now() + interval '7 days', now() - interval '40 days'
    from generate_series(1, ${N}) i`);
  await q(`
    insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id,
      approval_code, card_brand, card_last4, refunded_cents, payor_full_name, paid_at, created_at)
    select 'stream' || lpad(i::text, 20, '0'), 1 + i % 2, 1 + (i % 3 = 0)::int, 1000 + i,
      case when i % 13 = 0 then 'chosen' else 'approved' end,
      case when i % 13 = 0 then null else 'TXN-' || i end, 'A' || i, 'VISA', '4242',
      case when i % 10 = 0 then 500 else 0 end, case when i % 3 = 0 then '@Payor ' || i end,
      case when i % 13 = 0 then null else timestamptz '2026-03-01 12:00:00Z' - i * interval '500 microseconds' end,
      timestamptz '2026-02-20 12:00:00Z' - i * interval '1 second'
    from generate_series(1, ${N}) i`);
  // A card tried on each chosen payment, so the export lists it as attempted.
  await q(`insert into payment_log (link_id, payload)
    select 'stream' || lpad(i::text, 20, '0'), '{"kind":"declined"}' from generate_series(13, ${N}, 13) i`);
  await q(`
    insert into payment_plan (link_id, total_cents, kind, installment_count, every, first_due_on, status,
      deposit_cents, balance_cents, materialised_at)
    select 'stream' || lpad(i::text, 20, '0'), 300000, 'installments', 3, 'month', date '2026-04-01', 'active',
      100000, 200000, now()
    from generate_series(15, ${N}, 15) i where i % 13 <> 0`);
  // Instalment 1 paid in the very microsecond of its link's payment (a tie), 2 failed, 3 still scheduled.
  await q(`
    insert into plan_installment (plan_id, n, due_on, amount_cents, status, attempts, merchant_txn_id, gateway_txn_id,
      paid_at, refunded_cents, created_at, updated_at)
    select pp.id, k.n, date '2026-04-01' + (k.n - 1) * 30, 100000, k.status, k.n, 'M' || pp.id || 'n' || k.n || 'x0000000000000',
      case when k.n = 1 then 'GW-' || pp.id end,
      case when k.n = 1 then pay.paid_at end, case when k.n = 1 and pp.id % 2 = 0 then 2500 else 0 end,
      timestamptz '2026-01-01 00:00:00Z',
      case when k.n = 2 then pay.paid_at - interval '3 microseconds' else timestamptz '2026-01-02 00:00:00Z' end
    from payment_plan pp join payment pay on pay.link_id = pp.link_id
    cross join (values (1, 'paid'), (2, 'failed'), (3, 'scheduled')) k(n, status)`);
});
afterAll(async () => t?.close());

const dollars = (cents: Cell | undefined) => (Number(cents) / 100).toFixed(2);
const iso = (d: Cell | undefined) => (d === null || d === undefined ? null : new Date(d).toISOString());
const line = (cells: (Cell | undefined)[]) => `${cells.map((c) => csvField(c ?? null)).join(',')}\r\n`;

type Cell = string | number | null;
interface PaymentRow {
  [k: string]: Cell;
  link_id: string;
  status: string;
  created_at: string;
  paid_at: string | null;
  total_cents: Cell;
  balance_cents: Cell;
}
interface InstallmentRow {
  [k: string]: Cell;
  link_id: string;
  status: string;
  at: string;
  attempts: number;
  total_cents: string | number;
  balance_cents: string | number;
}

/** The export as it was built before streaming: every row in memory, one stable sort, one string. */
async function expectedCsv(): Promise<{ csv: string; linkIds: string[]; count: number }> {
  const payments = await t.ctx.db.query<PaymentRow>(
    `select p.*, l.first_name, l.last_name, pp.total_cents, pp.balance_cents,
       (select count(*) from payment_log g where g.link_id = p.link_id)::int as failed
     from payment p join link l on l.id = p.link_id left join payment_plan pp on pp.link_id = p.link_id
     order by coalesce(p.paid_at, p.created_at) desc, p.id desc`,
  );
  const installments = await t.ctx.db.query<InstallmentRow>(
    `select i.*, to_char(i.due_on, 'YYYY-MM-DD') as due, pp.link_id, pp.total_cents, pp.balance_cents,
       pp.installment_count, l.first_name, l.last_name, coalesce(i.paid_at, i.updated_at) as at
     from plan_installment i join payment_plan pp on pp.id = i.plan_id join link l on l.id = pp.link_id
     where i.status in ('paid', 'refunded', 'failed') order by coalesce(i.paid_at, i.updated_at) desc, i.id desc`,
  );
  const rows: { at: number; line: string; linkId: string }[] = [];
  for (const p of payments.rows) {
    const approved = p.status === 'approved';
    const refunded = Number(p.refunded_cents);
    const amount = Number(p.amount_cents);
    rows.push({
      at: new Date(p.paid_at ?? p.created_at).getTime(),
      linkId: p.link_id,
      line: line([
        p.link_id,
        p.first_name,
        p.last_name,
        p.status,
        dollars(amount),
        p.payment_type_id === 1 ? 'deposit' : 'payment',
        p.payment_source_id === 2 ? 'payor' : 'patient',
        p.payor_full_name,
        p.card_brand,
        p.card_last4,
        p.transaction_id,
        p.approval_code,
        p.failed,
        null,
        iso(p.created_at),
        iso(p.paid_at),
        null,
        null,
        null,
        dollars(refunded),
        p.total_cents === null ? null : dollars(p.total_cents),
        p.balance_cents === null ? null : dollars(p.balance_cents),
        approved ? (refunded === 0 ? 'none' : refunded < amount ? 'partially_refunded' : 'refunded') : null,
        approved ? dollars(amount - refunded) : '0.00',
      ]),
    });
  }
  for (const i of installments.rows) {
    const paid = i.status !== 'failed';
    const refunded = Number(i.refunded_cents);
    rows.push({
      at: new Date(i.at).getTime(),
      linkId: i.link_id,
      line: line([
        i.link_id,
        i.first_name,
        i.last_name,
        paid ? 'approved' : 'failed',
        dollars(i.amount_cents),
        'installment',
        'patient',
        null,
        null,
        null,
        i.gateway_txn_id,
        null,
        paid ? Math.max(0, i.attempts - 1) : i.attempts,
        null,
        iso(i.created_at),
        iso(i.paid_at),
        `${i.n}/${i.installment_count}`,
        i.due,
        i.status,
        dollars(refunded),
        dollars(i.total_cents),
        dollars(i.balance_cents),
        paid ? (refunded === 0 ? 'none' : 'partially_refunded') : null,
        paid ? dollars(Number(i.amount_cents) - refunded) : '0.00',
      ]),
    });
  }
  const linkIds = [...new Set(rows.map((r) => r.linkId))];
  rows.sort((a, b) => b.at - a.at);
  const header =
    'link_id,patient_first_name,patient_last_name,status,amount_usd,payment_type,payer,payor_name,card_brand,' +
    'card_last4,transaction_id,approval_code,failed_attempts,coordinator,chosen_at,paid_at,installment,due_on,' +
    'installment_status,refunded_usd,plan_total_usd,plan_balance_usd,refund_state,net_usd\r\n';
  return { csv: header + rows.map((r) => r.line).join(''), linkIds, count: rows.length };
}

describe('the payments CSV, streamed', () => {
  it('writes thousands of rows byte for byte as the in-memory export did, and audits every link once', async () => {
    const want = await expectedCsv();
    // Several batches of each cursor, and ties between a payment and an instalment in the same millisecond.
    expect(want.count).toBeGreaterThan(3 * 1000);
    const r = await t.app.inject({ url: '/api/admin/payments/export', headers: admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/csv');
    expect(r.body.length).toBe(want.csv.length);
    expect(r.body === want.csv, 'the streamed file differs from the in-memory one').toBe(true);
    expect(r.body).toContain(`,'=cmd|' /C calc'!A0,`);

    const audit = await t.ctx.db.query<{ details: { count: number; installments: number; linkIds: string[] } }>(
      `select details from audit_event where action = 'admin.payments_exported' order by id desc limit 1`,
    );
    expect(audit.rows[0]!.details.count).toBe(want.count);
    expect(audit.rows[0]!.details.installments).toBe(
      2 * Array.from({ length: N }, (_, i) => i + 1).filter((i) => i % 15 === 0 && i % 13 !== 0).length,
    );
    expect(audit.rows[0]!.details.linkIds).toEqual(want.linkIds);
  });

  it('streams with filters as well (a search and a date range)', async () => {
    const r = await t.app.inject({
      url: '/api/admin/payments/export?q=Pat15&from=2026-03-01&to=2026-03-01&status=approved',
      headers: admin,
    });
    expect(r.statusCode).toBe(200);
    const lines = r.body.split('\r\n').filter(Boolean);
    // Pat15, Pat150..Pat159 (bar those paid with a chosen status), Pat1500..; each approved, in time order.
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1).every((l) => l.includes(',approved,'))).toBe(true);
  });
});
