import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { toAdminPayment } from '../console/index.js';

interface Row {
  link_id: string;
  first_name: string;
  last_name: string;
  created_at: Date;
  payment: Parameters<typeof toAdminPayment>[0];
  attention: {
    id: string;
    transaction_id: string | null;
    amount_cents: number;
    attention_reason: string;
    card_last4: string | null;
    updated_at: string;
  }[];
}

/** Payments (chosen and approved), newest first, each with the gateway approvals staff must void or refund. */
export async function listPayments(opts: {
  db: Db;
  actor: Actor;
  status?: 'chosen' | 'approved';
  limit: number;
  offset: number;
}) {
  const where = opts.status ? 'where p.status = $3' : '';
  const params: unknown[] = [opts.limit, opts.offset, ...(opts.status ? [opts.status] : [])];
  return opts.db.transaction(async (tx) => {
    const rows = await tx.query<Row>(
      `select p.link_id, l.first_name, l.last_name, p.created_at, to_jsonb(p) as payment,
         coalesce((select jsonb_agg(jsonb_build_object('id', a.id, 'transaction_id', a.transaction_id,
             'amount_cents', a.amount_cents, 'attention_reason', a.attention_reason, 'card_last4', a.card_last4,
             'updated_at', a.updated_at) order by a.created_at)
           from payment_attempt a where a.link_id = p.link_id and a.needs_attention
             and a.attention_resolved_at is null), '[]'::jsonb) as attention
       from payment p join link l on l.id = p.link_id ${where}
       order by coalesce(p.paid_at, p.created_at) desc, p.id desc limit $1 offset $2`,
      params,
    );
    const total = await tx.query<{ n: number }>(
      `select count(*)::int as n from payment p ${opts.status ? 'where p.status = $1' : ''}`,
      opts.status ? [opts.status] : [],
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_listed',
      details: { status: opts.status ?? null, linkIds: rows.rows.map((r) => r.link_id) },
    });
    return {
      payments: rows.rows.map((r) => ({
        ...toAdminPayment(r.payment),
        linkId: r.link_id,
        firstName: r.first_name,
        lastName: r.last_name,
        createdAt: new Date(r.created_at).toISOString(),
        attention: r.attention.map((a) => ({
          attemptId: a.id,
          transactionId: a.transaction_id,
          amount: a.amount_cents / 100,
          reason: a.attention_reason,
          cardLast4: a.card_last4,
          flaggedAt: new Date(a.updated_at).toISOString(),
        })),
      })),
      total: total.rows[0]!.n,
    };
  });
}
