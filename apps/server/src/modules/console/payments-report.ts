import type { Readable } from 'node:stream';
import { paymentRefundState, type PaymentReport, type paymentReportQuerySchema } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { cursorBatches, snapshotStream } from '../../db/snapshot-stream.js';
import type { Row } from '../../db/typed.js';
import { AUDIT_COLUMNS, auditParams, writeAudit, type Actor } from '../../lib/audit.js';
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

/**
 * A card was tried on this unpaid payment (issue 29, item 4; decision 0219): the patient submitted a card, so the
 * gateway handed out a checkout token (an attempt that got past 'creating' and did not fail to start), or the browser
 * reported a failure. A link where an amount was only chosen is not an attempt.
 */
const CARD_TRIED = `(p.status = 'chosen' and (
    exists (select 1 from payment_attempt a where a.payment_id = p.id and a.status not in ('creating', 'failed'))
    or exists (select 1 from payment_log g where g.link_id = p.link_id)))`;

/**
 * Every failure the patient met paying (decision 0219): each failure the browser reported (declined, 3-D Secure
 * failed, error, checkout unavailable: one payment_log row each, even two on one shared token) and each payment the
 * gateway could not start. A token closed unused (abandoned, expired, or left over once another one was approved) is
 * not a failure.
 */
const FAILED_ATTEMPTS = `((select count(*) from payment_log g where g.link_id = p.link_id)
    + (select count(*) from payment_attempt a where a.payment_id = p.id and a.status = 'failed'))::int`;

function filters(q: Query, staffId: string, timeZone: string, params: unknown[]): string {
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  // A payment whose amount was only chosen is neither approved nor attempted: it is not listed (decision 0219).
  const where: string[] = [
    q.status === 'approved'
      ? `p.status = 'approved'`
      : q.status === 'attempted'
        ? CARD_TRIED
        : `(p.status = 'approved' or ${CARD_TRIED})`,
  ];
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
  return `where ${where.join(' and ')}`;
}

const COLUMNS = `p.link_id, l.first_name, l.last_name, p.status, p.amount_cents, p.payment_type_id,
    p.payment_source_id, p.payor_full_name, p.payor_email, p.card_brand, p.card_last4, p.transaction_id, p.approval_code,
    p.refunded_cents, ${FAILED_ATTEMPTS} as failed_attempts,
    u.id as coord_id, u.name as coord_name, u.email as coord_email, p.created_at, p.paid_at`;
const FROM = 'from payment p join link l on l.id = p.link_id left join staff_user u on u.id = l.created_by';
const SELECT = `select ${COLUMNS}
  ${FROM}`;

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
         count(*) filter (where ${CARD_TRIED})::int as attempted_count,
         coalesce(sum(p.amount_cents) filter (where ${CARD_TRIED}), 0)::text as attempted_cents
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
  // Payment plans (issue 28; decision 0212): appended, so the columns above keep their places.
  'installment',
  'due_on',
  'installment_status',
  'refunded_usd',
  'plan_total_usd',
  'plan_balance_usd',
  // Refunds (issue 29, item 4; decision 0219): appended the same way. `status` stays `approved` for a charge the card
  // network approved; refund_state (none, partially_refunded, refunded: the console's badge and the bookkeeping
  // export's words) and net_usd (amount less refunded_usd) say what was given back and what the practice kept.
  'refund_state',
  'net_usd',
];

const dollars = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const maybeDollars = (cents: number | string | null) => (cents === null ? null : dollars(Number(cents)));

interface InstallmentCsvRow {
  link_id: string;
  first_name: string;
  last_name: string;
  n: number;
  installment_count: number;
  due_on: string;
  amount_cents: number | string; // bigint
  status: 'paid' | 'refunded' | 'failed';
  attempts: number;
  gateway_txn_id: string | null;
  refunded_cents: number | string; // bigint
  card_brand: string | null;
  card_last4: string | null;
  coord_email: string | null;
  created_at: Date;
  paid_at: Date | null;
  at: Date;
  plan_total_cents: string;
  plan_balance_cents: string | null;
}

/** When an instalment counts: paid, else its last change (the final decline). */
const I_AT = 'coalesce(i.paid_at, i.updated_at)';

/**
 * The instalment charges the gateway saw (paid, refunded after it, failed after the last retry) under the report's
 * filters: `approved` = paid or refunded, `attempted` = failed. Open instalments are not payments: Upcoming charges
 * lists them.
 */
function installmentFilters(q: Query, staffId: string, timeZone: string, params: unknown[]): string {
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = [
    q.status === 'approved'
      ? `i.status in ('paid', 'refunded')`
      : q.status === 'attempted'
        ? `i.status = 'failed'`
        : `i.status in ('paid', 'refunded', 'failed')`,
  ];
  if (q.from) where.push(`${I_AT} >= (${add(q.from)}::date)::timestamp at time zone ${add(timeZone)}`);
  if (q.to) where.push(`${I_AT} < (${add(q.to)}::date + 1)::timestamp at time zone ${add(timeZone)}`);
  if (q.coordinatorId) where.push(`l.created_by = ${add(q.coordinatorId === 'me' ? staffId : q.coordinatorId)}`);
  if (q.q) {
    const like = add(`%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `((l.first_name || ' ' || l.last_name) ilike ${like} or l.email ilike ${like}
        or l.id = ${add(q.q)} or i.gateway_txn_id = ${add(q.q)})`,
    );
  }
  return `where ${where.join(' and ')}`;
}

const INSTALLMENT_FROM = `from plan_installment i join payment_plan pp on pp.id = i.plan_id join link l on l.id = pp.link_id
  left join stored_card c on c.link_id = l.id and c.replaced_at is null
  left join staff_user u on u.id = l.created_by`;
const INSTALLMENT_SELECT = `select l.id as link_id, l.first_name, l.last_name, i.n, pp.installment_count,
    to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.amount_cents, i.status, i.attempts, i.gateway_txn_id,
    i.refunded_cents, c.brand as card_brand, c.last4 as card_last4, u.email as coord_email, i.created_at, i.paid_at,
    ${I_AT} as at, pp.total_cents as plan_total_cents, pp.balance_cents as plan_balance_cents
  ${INSTALLMENT_FROM}`;

/** A deposit or balance row of the export: the report's columns and its link's plan (one per link at most). */
type ExportRow = ReportRow & { plan_total_cents: number | string | null; plan_balance_cents: number | string | null };

/** Rows of a cursor one at a time, for merging two cursors that are each in export order. */
async function rowsOf<T>(batches: AsyncGenerator<T[]>) {
  let batch: T[] = [];
  let i = 0;
  let done = false;
  const peek = async (): Promise<T | undefined> => {
    while (i >= batch.length && !done) {
      const next = await batches.next();
      if (next.done) done = true;
      else [batch, i] = [next.value, 0];
    }
    return batch[i];
  };
  await peek();
  return { peek, shift: () => batch[i++] };
}

const paymentLine = (r: ExportRow) =>
  csvLine([
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
    null,
    null,
    null,
    dollars(r.refunded_cents),
    maybeDollars(r.plan_total_cents),
    maybeDollars(r.plan_balance_cents),
    r.status === 'approved' ? paymentRefundState(r.amount_cents, r.refunded_cents) : null,
    r.status === 'approved' ? dollars(r.amount_cents - r.refunded_cents) : dollars(0),
  ]);

const installmentLine = (i: InstallmentCsvRow) => {
  const paid = i.status !== 'failed';
  // bigint columns: node-postgres answers strings, and "2500" >= "100000" as strings called a partial refund whole.
  const amount = Number(i.amount_cents);
  const refunded = Number(i.refunded_cents);
  return csvLine([
    i.link_id,
    i.first_name,
    i.last_name,
    paid ? 'approved' : 'failed',
    dollars(amount),
    'installment',
    'patient',
    null,
    i.card_brand,
    i.card_last4,
    i.gateway_txn_id,
    null,
    paid ? Math.max(0, i.attempts - 1) : i.attempts,
    i.coord_email,
    new Date(i.created_at).toISOString(),
    i.paid_at ? new Date(i.paid_at).toISOString() : null,
    `${i.n}/${i.installment_count}`,
    i.due_on,
    i.status,
    dollars(refunded),
    maybeDollars(i.plan_total_cents),
    maybeDollars(i.plan_balance_cents),
    paid ? paymentRefundState(amount, refunded) : null,
    dollars(paid ? amount - refunded : 0),
  ]);
};

/** Lines are sent in chunks of about this many characters. */
const CHUNK = 64 << 10;

/**
 * Every matching payment as CSV (no paging; amounts in dollars, ISO 8601 UTC times, card brand + last 4 only), with
 * each plan's instalment charges as rows of their own (payment_type `installment`), newest first together. Streamed
 * from two cursors in one snapshot (issue 30; decision 0228), merged as the report lists them: by the millisecond,
 * a payment before an instalment of the same millisecond, each cursor's own order otherwise. The audit row (its count
 * and every link id, first seen first) is written by the database from the same snapshot before the first byte, so
 * the server never holds the whole list.
 */
export async function exportPaymentsCsv(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<Readable> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const params: unknown[] = [];
  const where = filters(query, opts.staffId, timeZone, params);
  const iParams: unknown[] = [];
  const iWhere = installmentFilters(query, opts.staffId, timeZone, iParams);
  // The audit statement numbers both filters' parameters after its own.
  const aParams: unknown[] = [...auditParams({ ...opts.actor, action: 'admin.payments_exported' })];
  const add = (v: unknown) => `$${aParams.push(v)}`;
  const filtersJson = JSON.stringify({ ...query, limit: undefined, offset: undefined });
  const auditSql = `with ids as (
      select p.link_id, 1 as src, row_number() over (order by ${AT} desc, p.id desc) as rn
        ${FROM} ${filters(query, opts.staffId, timeZone, aParams)}
      union all
      select l.id, 2, 1e15 + row_number() over (order by ${I_AT} desc, i.id desc)
        ${INSTALLMENT_FROM} ${installmentFilters(query, opts.staffId, timeZone, aParams)})
    insert into audit_event (${AUDIT_COLUMNS})
    select $1, $2, $3, $4, $5, $6, jsonb_build_object(
      'count', (select count(*) from ids)::int,
      'installments', (select count(*) from ids where src = 2)::int,
      'filters', ${add(filtersJson)}::jsonb,
      'linkIds', coalesce((select jsonb_agg(link_id order by rn)
        from (select link_id, min(rn) as rn from ids group by link_id) x), '[]'::jsonb))`;
  const audit = () => ctx.db.transaction((tx) => tx.query(auditSql, aParams));
  return snapshotStream(
    ctx.db,
    async (tx, write) => {
      await tx.query(auditSql, aParams);
      const payments = await rowsOf(
        cursorBatches<ExportRow>(
          tx,
          `select ${COLUMNS}, pp.total_cents as plan_total_cents, pp.balance_cents as plan_balance_cents
             ${FROM} left join payment_plan pp on pp.link_id = p.link_id ${where} order by ${AT} desc, p.id desc`,
          params,
        ),
      );
      const installments = await rowsOf(
        cursorBatches<InstallmentCsvRow>(
          tx,
          `${INSTALLMENT_SELECT} ${iWhere} order by ${I_AT} desc, i.id desc`,
          iParams,
        ),
      );
      let out = csvLine(CSV_HEADER);
      for (;;) {
        const p = await payments.peek();
        const i = await installments.peek();
        if (!p && !i) break;
        // Newest first; the same millisecond keeps the payment first (the stable sort of the in-memory export).
        const takePayment = p && (!i || new Date(p.paid_at ?? p.created_at).getTime() >= new Date(i.at).getTime());
        out += takePayment ? paymentLine(payments.shift()!) : installmentLine(installments.shift()!);
        if (out.length >= CHUNK) {
          await write(out);
          out = '';
        }
      }
      await write(out);
    },
    // The snapshot rolled back after rows went out: the audit row is written again, on its own.
    { onCut: async () => void (await audit()) },
  );
}
