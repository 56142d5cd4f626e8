import type { FlaggedApproval } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';

interface Row {
  id: string;
  link_id: string;
  first_name: string;
  last_name: string;
  transaction_id: string | null;
  amount_cents: number;
  attention_reason: string | null;
  card_brand: string | null;
  card_last4: string | null;
  updated_at: Date;
  pending: boolean;
}

/** The second approvals flagged by reconciliation that nobody has voided yet, oldest first (the billing queue). */
export async function listFlaggedApprovals(opts: { db: Db; actor: Actor }): Promise<{ flags: FlaggedApproval[] }> {
  return opts.db.transaction(async (tx) => {
    const r = await tx.query<Row>(
      `select a.id, a.link_id, l.first_name, l.last_name, a.transaction_id, a.amount_cents, a.attention_reason,
         a.card_brand, a.card_last4, a.updated_at,
         exists (select 1 from refund f where f.payment_attempt_id = a.id and f.status = 'pending') as pending
       from payment_attempt a join link l on l.id = a.link_id
       where a.needs_attention and a.attention_resolved_at is null and a.status = 'duplicate'
       order by a.updated_at, a.id limit 500`,
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.flagged_approvals_listed',
      details: { linkIds: r.rows.map((x) => x.link_id) },
    });
    return {
      flags: r.rows.map((x) => ({
        attemptId: x.id,
        linkId: x.link_id,
        firstName: x.first_name,
        lastName: x.last_name,
        transactionId: x.transaction_id,
        amount: x.amount_cents / 100,
        reason: x.attention_reason ?? 'second_approval',
        cardBrand: x.card_brand,
        cardLast4: x.card_last4,
        flaggedAt: new Date(x.updated_at).toISOString(),
        voidPending: x.pending,
      })),
    };
  });
}
