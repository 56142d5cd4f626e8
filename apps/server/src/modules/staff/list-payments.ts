import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/audit.js';
import { toStaffPayment } from '../console/index.js';

interface Attention {
  id: string;
  transaction_id: string | null;
  amount_cents: number;
  attention_reason: string;
  card_last4: string | null;
  updated_at: string;
}

/** Payments (chosen and approved), newest first, each with the gateway approvals staff must void or refund. */
export async function listPayments(opts: {
  db: Db;
  actor: Actor;
  status?: 'chosen' | 'approved';
  limit: number;
  offset: number;
}) {
  return opts.db.transaction(async (tx) => {
    let query = typed(tx)
      .selectFrom('payment as p')
      .innerJoin('link as l', 'l.id', 'p.link_id')
      .select(['p.link_id', 'l.first_name', 'l.last_name', 'p.created_at'])
      .select([
        sql<Parameters<typeof toStaffPayment>[0]>`to_jsonb(p)`.as('payment'),
        // The open flags of the link as one jsonb list: clearer as SQL than as nested builder calls.
        sql<Attention[]>`coalesce((select jsonb_agg(jsonb_build_object('id', a.id, 'transaction_id', a.transaction_id,
            'amount_cents', a.amount_cents, 'attention_reason', a.attention_reason, 'card_last4', a.card_last4,
            'updated_at', a.updated_at) order by a.created_at)
          from payment_attempt a where a.link_id = p.link_id and a.needs_attention
            and a.attention_resolved_at is null), '[]'::jsonb)`.as('attention'),
      ]);
    let count = typed(tx)
      .selectFrom('payment as p')
      .select(sql<number>`count(*)::int`.as('n'));
    if (opts.status) {
      query = query.where('p.status', '=', opts.status);
      count = count.where('p.status', '=', opts.status);
    }
    const rows = await query
      .orderBy(sql`coalesce(p.paid_at, p.created_at)`, 'desc')
      .orderBy('p.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    const total = await count.executeTakeFirstOrThrow();
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_listed',
      details: { status: opts.status ?? null, linkIds: rows.map((r) => r.link_id) },
    });
    return {
      payments: rows.map((r) => ({
        ...toStaffPayment(r.payment),
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
      total: total.n,
    };
  });
}
