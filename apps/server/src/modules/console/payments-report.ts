import type { Readable } from 'node:stream';
import { paymentRefundState, type PaymentReport, type paymentReportQuerySchema } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { cursorBatches, snapshotStream } from '../../db/snapshot-stream.js';
import { AUDIT_COLUMNS, auditDetailsJson, auditParams, writeAudit, type Actor } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import {
  MONEY_SUMS,
  SALES_ORDER,
  salesSql,
  type MoneySums,
  type SaleDetailRow,
  type SaleFilters,
} from '../refunds/index.js';
import { toStaffPayment } from './staff-link-queries.js';

type Query = z.output<typeof paymentReportQuerySchema>;

/** The report's filters on the read model of money movements (decision 0243). */
const saleFilters = (q: Query, staffId: string, timeZone: string): SaleFilters => ({
  status: q.status,
  from: q.from,
  to: q.to,
  timeZone,
  createdBy: q.coordinatorId ? (q.coordinatorId === 'me' ? staffId : q.coordinatorId) : undefined,
  q: q.q,
});

const dollarsOf = (cents: string | number) => Number(cents) / 100;

const toRow = (r: SaleDetailRow): PaymentReport['rows'][0] => ({
  linkId: r.link_id,
  firstName: r.first_name,
  lastName: r.last_name,
  kind: r.kind,
  installment:
    r.n === null
      ? null
      : { n: r.n, count: r.installment_count ?? r.n, dueOn: r.due_on ?? '', status: r.installment_status ?? 'paid' },
  ...toStaffPayment({
    payment_type_id: r.payment_type_id ?? 2,
    payment_source_id: r.payment_source_id,
    payor_full_name: r.payor_full_name,
    payor_email: r.payor_email,
    amount_cents: Number(r.amount_cents),
    // An instalment declined after its last retry is not approved: the screen's "not paid".
    status: r.status === 'approved' ? 'approved' : 'chosen',
    transaction_id: r.transaction_id,
    approval_code: r.approval_code,
    card_brand: r.card_brand,
    card_last4: r.card_last4,
    paid_at: r.paid_at,
    refunded_cents: Number(r.refunded_cents),
  }),
  net: dollarsOf(r.net_cents),
  failedAttempts: r.failed_attempts,
  coordinator: r.coord_id ? { id: r.coord_id, name: r.coord_name ?? '', email: r.coord_email ?? '' } : null,
  chosenAt: new Date(r.created_at).toISOString(),
});

/**
 * The sales of the read model of money movements (deposits, balance payments, plan instalments; decision 0243) with
 * totals per day, week or month in the practice's time zone: charged, attempted, refunded and kept (net). Audited
 * (names).
 */
export async function paymentReport(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<PaymentReport> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const f = saleFilters(query, opts.staffId, timeZone);
  return ctx.db.transaction(async (tx) => {
    // The page is picked from the lean relation, then its rows are read in detail: the detail's sub-selects
    // (declines, merchant id) run for 50 rows, not for every matching sale before the sort.
    const params: unknown[] = [];
    const lean = salesSql(f, params);
    const page = `(select s.src, s.sale_id from (${lean}) s ${SALES_ORDER}
      limit $${params.push(query.limit)} offset $${params.push(query.offset)})`;
    const detail = salesSql({ keysSql: 'page' }, params, { detail: true });
    const rows = await tx.query<SaleDetailRow>(
      `with page as ${page} select * from (${detail}) s ${SALES_ORDER}`,
      params,
    );
    const tParams: unknown[] = [];
    const money = salesSql(f, tParams);
    const totals = await tx.query<MoneySums & { period: string }>(
      `select to_char(date_trunc($${tParams.push(query.groupBy)}, s.at at time zone $${tParams.push(timeZone)}),
           'YYYY-MM-DD') as period, ${MONEY_SUMS}
       from (${money}) s group by 1 order by 1 desc`,
      tParams,
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_listed',
      details: { view: 'report', linkIds: [...new Set(rows.rows.map((r) => r.link_id))] },
    });
    const t = totals.rows.map((r) => ({
      period: r.period,
      approvedCount: r.approved_count,
      approvedAmount: dollarsOf(r.approved_cents),
      attemptedCount: r.attempted_count,
      attemptedAmount: dollarsOf(r.attempted_cents),
      refundedAmount: dollarsOf(r.refunded_cents),
      netAmount: dollarsOf(r.net_cents),
    }));
    // Summed in cents: dollars of many periods added as floats would drift.
    const sum = (k: 'approved_cents' | 'refunded_cents' | 'net_cents') =>
      totals.rows.reduce((n, x) => n + Number(x[k]), 0) / 100;
    return {
      rows: rows.rows.map(toRow),
      total: t.reduce((n, x) => n + x.approvedCount + x.attemptedCount, 0),
      totals: t,
      sum: {
        approvedCount: t.reduce((n, x) => n + x.approvedCount, 0),
        approvedAmount: sum('approved_cents'),
        refundedAmount: sum('refunded_cents'),
        netAmount: sum('net_cents'),
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

const dollars = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const maybeDollars = (cents: number | string | null) => (cents === null ? null : dollars(Number(cents)));

/** A sale of the read model as a CSV line: the screen's row, in the columns above. */
const saleLine = (r: SaleDetailRow) => {
  const approved = r.status === 'approved';
  // bigint columns: node-postgres answers strings, and "2500" >= "100000" as strings called a partial refund whole.
  const amount = Number(r.amount_cents);
  const refunded = Number(r.refunded_cents);
  const installment = r.kind === 'installment';
  return csvLine([
    r.link_id,
    r.first_name,
    r.last_name,
    installment ? (approved ? 'approved' : 'failed') : r.status,
    dollars(amount),
    installment ? 'installment' : r.kind,
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
    installment ? `${r.n}/${r.installment_count}` : null,
    r.due_on,
    r.installment_status,
    dollars(refunded),
    maybeDollars(r.plan_total_cents),
    maybeDollars(r.plan_balance_cents),
    approved ? paymentRefundState(amount, refunded) : null,
    dollars(Number(r.net_cents)),
  ]);
};

/** Lines are sent in chunks of about this many characters. */
const CHUNK = 64 << 10;

/**
 * Every matching sale as CSV (no paging; amounts in dollars, ISO 8601 UTC times, card brand + last 4 only): the
 * screen's rows from the same read model (decision 0243), each plan instalment charge a row of its own (payment_type
 * `installment`), newest first. Streamed from one cursor in one snapshot (issue 30; decision 0228). The audit row
 * (its count and every link id, the payments' links first, then the instalments') is written by the database from the same snapshot before the first
 * byte, so the server never holds the whole list.
 */
export async function exportPaymentsCsv(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<Readable> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const f = saleFilters(query, opts.staffId, timeZone);
  const params: unknown[] = [];
  const sales = salesSql(f, params, { detail: true });
  // The audit statement numbers the filters' parameters after its own.
  const aParams: unknown[] = [...auditParams({ ...opts.actor, action: 'admin.payments_exported' })];
  const add = (v: unknown) => `$${aParams.push(v)}`;
  // Redacted in JS before binding, as every audit row's details are (a search term may be a card number; decision
  // 0240): the report keeps its one statement (decisions 0232, 0243).
  const filtersJson = auditDetailsJson({ details: { ...query, limit: undefined, offset: undefined } });
  const auditSql = `with ids as (
      select s.link_id, s.src, row_number() over (order by s.src, s.at desc, s.sale_id::bigint desc) as rn
        from (${salesSql(f, aParams)}) s)
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
      let out = csvLine(CSV_HEADER);
      for await (const rows of cursorBatches<SaleDetailRow>(tx, `select * from (${sales}) s ${SALES_ORDER}`, params)) {
        for (const r of rows) out += saleLine(r);
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
