import type { FlaggedApproval } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';

/** The second approvals flagged by reconciliation that nobody has voided yet, oldest first (the billing queue). */
export async function listFlaggedApprovals(opts: { db: Db; actor: Actor }): Promise<{ flags: FlaggedApproval[] }> {
  return opts.db.transaction(async (tx) => {
    const rows = await typed(tx)
      .selectFrom('payment_attempt as a')
      .innerJoin('link as l', 'l.id', 'a.link_id')
      .select([
        'a.id',
        'a.link_id',
        'l.first_name',
        'l.last_name',
        'a.transaction_id',
        'a.amount_cents',
        'a.attention_reason',
        'a.card_brand',
        'a.card_last4',
        'a.updated_at',
      ])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('refund as f')
              .select('f.id')
              .whereRef('f.payment_attempt_id', '=', 'a.id')
              .where('f.status', '=', 'pending'),
          )
          // PostgreSQL's exists is a real boolean (SqlBool also allows MySQL's 0/1).
          .$castTo<boolean>()
          .as('pending'),
      )
      .where('a.needs_attention', '=', true)
      .where('a.attention_resolved_at', 'is', null)
      .where('a.status', '=', 'duplicate')
      .orderBy('a.updated_at')
      .orderBy('a.id')
      .limit(500)
      .execute();
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.flagged_approvals_listed',
      details: { linkIds: rows.map((x) => x.link_id) },
    });
    return {
      flags: rows.map((x) => ({
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
