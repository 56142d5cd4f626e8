import type { PaymentReport, paymentReportQuerySchema } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Row } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { toStaffPayment } from './staff-link-queries.js';

type Query = z.output<typeof paymentReportQuerySchema>;

/** The report's SELECT: columns typed from the tables they come from (a dynamic report query stays plain SQL). */
type ReportRow = Pick<
  Row<'payment'>,
  | 'link_id'
  | 'status'
  | 'amount_cents'
  | 'payment_type_id'
  | 'payment_source_id'
  | 'payor_full_name'
  | 'payor_email'
  | 'card_brand'
  | 'card_last4'
  | 'transaction_id'
  | 'approval_code'
  | 'refunded_cents'
  | 'created_at'
  | 'paid_at'
> &
  Pick<Row<'link'>, 'first_name' | 'last_name'> & {
    failed_attempts: number;
    coord_id: string | null;
    coord_name: string | null;
    coord_email: string | null;
  };

/** The date a payment counts on: when it was paid, else when the amount was chosen. */
const AT = 'coalesce(p.paid_at, p.created_at)';

function filters(q: Query, staffId: string, timeZone: string, params: unknown[]): string {
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (q.status === 'approved') where.push(`p.status = 'approved'`);
  if (q.status === 'attempted') where.push(`p.status = 'chosen'`);
  if (q.from) where.push(`${AT} >= (${add(q.from)}::date)::timestamp at time zone ${add(timeZone)}`);
  if (q.to) where.push(`${AT} < (${add(q.to)}::date + 1)::timestamp at time zone ${add(timeZone)}`);
  if (q.coordinatorId) where.push(`l.created_by = ${add(q.coordinatorId === 'me' ? staffId : q.coordinatorId)}`);
  if (q.q) {
    const like = add(`%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `((l.first_name || ' ' || l.last_name) ilike ${like} or l.email ilike ${like} or p.payor_full_name ilike ${like}
        or l.id = ${add(q.q)} or p.transaction_id = ${add(q.q)})`,
    );
  }
  return where.length ? `where ${where.join(' and ')}` : '';
}

const SELECT = `select p.link_id, l.first_name, l.last_name, p.status, p.amount_cents, p.payment_type_id,
    p.payment_source_id, p.payor_full_name, p.payor_email, p.card_brand, p.card_last4, p.transaction_id, p.approval_code,
    p.refunded_cents, (select count(*)::int from payment_attempt a where a.payment_id = p.id and a.status in ('closed', 'failed'))
      as failed_attempts,
    u.id as coord_id, u.name as coord_name, u.email as coord_email, p.created_at, p.paid_at
  from payment p join link l on l.id = p.link_id left join staff_user u on u.id = l.created_by`;

const toRow = (r: ReportRow): PaymentReport['rows'][0] => ({
  linkId: r.link_id,
  firstName: r.first_name,
  lastName: r.last_name,
  ...toStaffPayment(r),
  failedAttempts: r.failed_attempts,
  coordinator: r.coord_id ? { id: r.coord_id, name: r.coord_name ?? '', email: r.coord_email ?? '' } : null,
  chosenAt: new Date(r.created_at).toISOString(),
});

/** Payments with totals per day, week (from Monday) or month in the practice's time zone. Audited (names). */
export async function paymentReport(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<PaymentReport> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const params: unknown[] = [];
  const where = filters(query, opts.staffId, timeZone, params);
  return ctx.db.transaction(async (tx) => {
    const rows = await tx.query<ReportRow>(
      `${SELECT} ${where} order by ${AT} desc, p.id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, query.limit, query.offset],
    );
    const totals = await tx.query<{
      period: string;
      approved_count: number;
      approved_cents: string;
      attempted_count: number;
      attempted_cents: string;
    }>(
      `select to_char(date_trunc($${params.length + 1}, ${AT} at time zone $${params.length + 2}), 'YYYY-MM-DD') as period,
         count(*) filter (where p.status = 'approved')::int as approved_count,
         coalesce(sum(p.amount_cents) filter (where p.status = 'approved'), 0)::text as approved_cents,
         count(*) filter (where p.status = 'chosen')::int as attempted_count,
         coalesce(sum(p.amount_cents) filter (where p.status = 'chosen'), 0)::text as attempted_cents
       from payment p join link l on l.id = p.link_id ${where}
       group by 1 order by 1 desc`,
      [...params, query.groupBy, timeZone],
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_listed',
      details: { view: 'report', linkIds: rows.rows.map((r) => r.link_id) },
    });
    const t = totals.rows.map((r) => ({
      period: r.period,
      approvedCount: r.approved_count,
      approvedAmount: Number(r.approved_cents) / 100,
      attemptedCount: r.attempted_count,
      attemptedAmount: Number(r.attempted_cents) / 100,
    }));
    return {
      rows: rows.rows.map(toRow),
      total: t.reduce((n, x) => n + x.approvedCount + x.attemptedCount, 0),
      totals: t,
      sum: {
        approvedCount: t.reduce((n, x) => n + x.approvedCount, 0),
        approvedAmount: t.reduce((n, x) => n + Math.round(x.approvedAmount * 100), 0) / 100,
      },
      timeZone,
    };
  });
}

/**
 * RFC 4180: fields with a comma, quote, CR or LF are quoted and quotes doubled; lines end CRLF. A field that starts
 * with = + - @ or a tab is prefixed with ' so spreadsheets do not run it as a formula (OWASP CSV injection).
 */
export function csvField(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
const csvLine = (fields: (string | number | null)[]) => `${fields.map(csvField).join(',')}\r\n`;

const CSV_HEADER = [
  'link_id',
  'patient_first_name',
  'patient_last_name',
  'status',
  'amount_usd',
  'payment_type',
  'payer',
  'payor_name',
  'card_brand',
  'card_last4',
  'transaction_id',
  'approval_code',
  'failed_attempts',
  'coordinator',
  'chosen_at',
  'paid_at',
];

const dollars = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Every matching payment as CSV (no paging; amounts in dollars, ISO 8601 UTC times, card brand + last 4 only). */
export async function exportPaymentsCsv(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<string> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const params: unknown[] = [];
  const where = filters(query, opts.staffId, timeZone, params);
  return ctx.db.transaction(async (tx) => {
    const rows = await tx.query<ReportRow>(`${SELECT} ${where} order by ${AT} desc, p.id desc`, params);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_exported',
      details: {
        count: rows.rows.length,
        filters: { ...query, limit: undefined, offset: undefined },
        linkIds: rows.rows.map((r) => r.link_id),
      },
    });
    let out = csvLine(CSV_HEADER);
    for (const r of rows.rows) {
      out += csvLine([
        r.link_id,
        r.first_name,
        r.last_name,
        r.status,
        dollars(r.amount_cents),
        r.payment_type_id === 1 ? 'deposit' : 'payment',
        r.payment_source_id === 2 ? 'payor' : 'patient',
        r.payor_full_name,
        r.card_brand,
        r.card_last4,
        r.transaction_id,
        r.approval_code,
        r.failed_attempts,
        r.coord_email,
        new Date(r.created_at).toISOString(),
        r.paid_at ? new Date(r.paid_at).toISOString() : null,
      ]);
    }
    return out;
  });
}
