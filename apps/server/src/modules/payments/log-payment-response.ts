import { redactGatewayPayload } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { requireUsableLink } from '../links/index.js';
import { closeOpenAttempts } from './payment-queries.js';

/** The failure kinds the web app reports (its log payload's `kind`), for the audit row only. */
function kindOf(payload: string): string | null {
  try {
    const v = JSON.parse(payload) as { kind?: unknown };
    return typeof v.kind === 'string' ? v.kind.slice(0, 40) : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/linkpaymenthistory/{linkId}/log: a decline or error the browser got from the gateway, stored redacted
 * (no card number beyond the last 4, never a CVC). The reporting session's live token is retired: its next submit gets
 * a new one.
 */
export async function logPaymentResponse(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  /** The patient session (browser) reporting: only its own open attempts are closed. */
  sessionId: string;
  linkStepId: number;
  payload: string;
}): Promise<{ id: number }> {
  const payload = redactGatewayPayload(opts.payload);
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId, { forUpdate: true });
    const step = await typed(tx)
      .selectFrom('link_step')
      .select('id')
      .where('id', '=', opts.linkStepId)
      .where('link_id', '=', link.id)
      .executeTakeFirst();
    if (!step) {
      throw badRequest('linkStepId is not a step of this link.', { linkStepId: 'is not a step of this link' });
    }
    const logged = await typed(tx)
      .insertInto('payment_log')
      .values({ link_id: link.id, link_step_id: opts.linkStepId, payload })
      .returning('id')
      .executeTakeFirstOrThrow();
    const closed = await closeOpenAttempts(tx, link.id, opts.sessionId);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'payment.failure_logged',
      linkId: link.id,
      details: {
        paymentLogId: logged.id,
        linkStepId: opts.linkStepId,
        kind: kindOf(payload),
        closedAttempts: closed,
      },
    });
    return { id: logged.id };
  });
}
