import type { DepositApproval } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import type { SecretSource } from '../../lib/secret-keys.js';
import { markCardNeeded, storeCard } from './card-queries.js';
import { sealCardToken } from './card-token-seal.js';
import { materialisePlan } from './materialise-plan.js';
import { findPlanByLink } from './plans-queries.js';

/** MMYY as the gateway reports it; null when it says something else. */
export function parseExpiry(v: string | null | undefined): { month: number; year: number } | null {
  const m = v ? /^(0[1-9]|1[0-2])(\d{2})$/.exec(v) : null;
  return m ? { month: Number(m[1]), year: 2000 + Number(m[2]) } : null;
}

/**
 * At the deposit's approval, in the transaction that records it: the card the sale stored (only the gateway's token,
 * sealed) with what later merchant-initiated sales must quote (the first sale's approval code and network data), then
 * the instalments (materialisePlan). A verified sale without a token stores no card: the plan is flagged as needing
 * one and the approval stands. Does nothing for a link without a plan; a second call stores nothing twice. Answers whether the
 * link has a plan (the receipt then reads its terms; without one it need not look).
 */
export async function storeDepositCard(src: SecretSource, tx: Queryable, o: DepositApproval): Promise<boolean> {
  const plan = await findPlanByLink(tx, o.linkId, { forUpdate: true });
  if (!plan) return false;
  if (plan.status !== 'pending') return true;
  const txn = o.transaction;
  const token = txn.cardToken?.trim() || null;
  if (token) {
    const expiry = parseExpiry(txn.cardExpiry);
    const last4 = txn.last4 && /^\d{4}$/.test(txn.last4) ? txn.last4 : null;
    const cardId = await storeCard(tx, {
      linkId: o.linkId,
      tokenSealed: await sealCardToken({ ...src, q: tx }, token),
      brand: txn.cardBrand,
      last4,
      expMonth: expiry?.month ?? null,
      expYear: expiry?.year ?? null,
      paymentAttemptId: o.attemptId,
      approvalCode: txn.approvalCode,
      ps2000Data: txn.ps2000Data ?? null,
    });
    await writeAudit(tx, {
      ...o.actor,
      action: 'plan.card_stored',
      linkId: o.linkId,
      details: { cardId, brand: txn.cardBrand, last4, expiry: txn.cardExpiry ?? null, attemptId: o.attemptId },
    });
  } else {
    await markCardNeeded(tx, plan.id);
    await writeAudit(tx, {
      ...o.actor,
      action: 'plan.card_missing',
      linkId: o.linkId,
      details: {
        attemptId: o.attemptId,
        transactionId: txn.txnId,
        reason: 'the approved deposit carried no card token',
      },
    });
  }
  await materialisePlan({ tx, actor: o.actor, linkId: o.linkId, paidCents: o.paidCents });
  return true;
}
