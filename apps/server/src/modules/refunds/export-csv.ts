import { paymentRefundState } from '@paylink/shared';
import type { Readable } from 'node:stream';
import type { Db, Queryable } from '../../db/client.js';
import { cursorBatches, snapshotStream } from '../../db/snapshot-stream.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { csvRow, type CsvCell } from '../../lib/csv.js';
import { badRequest } from '../../lib/errors.js';
import { salesSql } from './money-movements.js';

const dollars = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);

/** [from 00:00 UTC, the day after `to` 00:00 UTC): both days included. At most 366 days per export. */
function range(q: { from: string; to: string }): [Date, Date] {
  const from = new Date(`${q.from}T00:00:00Z`);
  const to = new Date(`${q.to}T00:00:00Z`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw badRequest('from and to must be real dates.');
  if (to < from) throw badRequest('to must be on or after from.', { to: 'is before from' });
  if (to.getTime() - from.getTime() > 366 * 86400_000) throw badRequest('Export at most 366 days at a time.');
  return [from, new Date(to.getTime() + 86400_000)];
}

export interface Export {
  name: 'payments' | 'refunds' | 'links';
  summary: string;
  header: string[];
  sql: string;
  row: (r: Record<string, unknown>) => CsvCell[];
}

export const EXPORTS: Export[] = [
  {
    name: 'payments',
    summary:
      'Approved sales paid in the date range (UTC days, both included): deposits, balance payments and plan ' +
      'installments, with what was refunded',
    header: [
      'paid_at',
      'link_id',
      'patient_first_name',
      'patient_last_name',
      'payor_name',
      'payment_type',
      'paid_by',
      'amount',
      'refunded',
      'net',
      'refund_state',
      'card_brand',
      'card_last4',
      'approval_code',
      'transaction_id',
      // Payment plans (issue 41, item 4; decision 0243): appended, so the columns above keep their places.
      'installment',
      'merchant_transaction_id',
    ],
    // The read model of money movements (decision 0243): the Payments screen's sales, approved, by the day they were
    // paid. Its parameters are $1 and $2 (these filters need none of their own).
    sql: `select * from (${salesSql({ status: 'approved' }, [], { detail: true })}) s
          where s.at >= $1 and s.at < $2 order by s.at, s.src, s.sale_id::bigint`,
    row: (r) => {
      const amount = Number(r.amount_cents);
      const refunded = Number(r.refunded_cents);
      return [
        r.paid_at as Date,
        r.link_id as string,
        r.first_name as string,
        r.last_name as string,
        r.payor_full_name as string,
        r.kind as string,
        r.payment_source_id === 2 ? 'payor' : 'patient',
        dollars(amount),
        dollars(refunded),
        dollars(Number(r.net_cents)),
        paymentRefundState(amount, refunded),
        r.card_brand as string,
        r.card_last4 as string,
        r.approval_code as string,
        r.transaction_id as string,
        r.n === null ? null : `${r.n as number}/${r.installment_count as number}`,
        r.merchant_txn_id as string,
      ];
    },
  },
  {
    name: 'refunds',
    summary: 'Refunds and voids requested in the date range (UTC days, both included), every status',
    header: [
      'created_at',
      'completed_at',
      'link_id',
      'kind',
      'amount',
      'status',
      'reason',
      'original_transaction_id',
      'refund_transaction_id',
      'requested_by',
      'failure_message',
    ],
    sql: `select r.*, u.email as requested_by_email from refund r left join staff_user u on u.id = r.requested_by
          where r.created_at >= $1 and r.created_at < $2 order by r.created_at, r.id`,
    row: (r) => [
      r.created_at as Date,
      r.completed_at as Date,
      r.link_id as string,
      r.kind as string,
      dollars(r.amount_cents as number),
      r.status as string,
      r.reason as string,
      r.original_transaction_id as string,
      r.gateway_transaction_id as string,
      r.requested_by_email as string,
      r.failure_message as string,
    ],
  },
  {
    name: 'links',
    summary: 'Links created in the date range (UTC days, both included) with their state and payment',
    header: [
      'created_at',
      'link_id',
      'patient_first_name',
      'patient_last_name',
      'status',
      'expires_at',
      'completed_at',
      'cancelled_at',
      'payment_amount',
      'payment_status',
      'refunded',
      'created_by',
    ],
    sql: `select l.*, p.amount_cents, p.status as payment_status, p.refunded_cents, u.email as created_by_email
          from link l left join payment p on p.link_id = l.id left join staff_user u on u.id = l.created_by
          where l.created_at >= $1 and l.created_at < $2 order by l.created_at, l.id`,
    row: (r) => [
      r.created_at as Date,
      r.id as string,
      r.first_name as string,
      r.last_name as string,
      r.status === 'active' && new Date(r.expires_at as Date) <= new Date() ? 'expired' : (r.status as string),
      r.expires_at as Date,
      r.completed_at as Date,
      r.cancelled_at as Date,
      dollars(r.amount_cents as number | null),
      r.payment_status as string,
      dollars(r.refunded_cents as number | null),
      r.created_by_email as string,
    ],
  },
];

/**
 * One bookkeeping export as CSV for the UTC days from..to (both included), audited with its row count. The queries are
 * plain SQL by design (decision 0125): each is a fixed report whose columns the CSV row maps one by one. Streamed from
 * a cursor in one snapshot (issue 30; decision 0228): the count is read and the audit row written before the first
 * byte, and an error after it cuts the download.
 */
export async function exportCsv(o: {
  db: Db;
  actor: Actor;
  name: Export['name'];
  from: string;
  to: string;
}): Promise<{ csv: Readable; fileName: string }> {
  const ex = EXPORTS.find((e) => e.name === o.name)!;
  const [from, to] = range(o);
  const audit = async (q: Queryable) => {
    const n = await q.query<{ n: number }>(`select count(*)::int as n from (${ex.sql}) q`, [from, to]);
    await writeAudit(q, {
      ...o.actor,
      action: 'export.downloaded',
      details: { export: ex.name, from: o.from, to: o.to, rows: n.rows[0]!.n },
    });
  };
  const csv = await snapshotStream(
    o.db,
    async (tx, write) => {
      await audit(tx);
      let out = csvRow(ex.header);
      for await (const rows of cursorBatches<Record<string, unknown>>(tx, ex.sql, [from, to])) {
        for (const r of rows) out += csvRow(ex.row(r));
        await write(out);
        out = '';
      }
      await write(out);
    },
    // The snapshot rolled back after rows went out: the audit row is written again, on its own.
    { onCut: () => o.db.transaction(audit) },
  );
  return { csv, fileName: `${ex.name}-${o.from}-to-${o.to}.csv` };
}
