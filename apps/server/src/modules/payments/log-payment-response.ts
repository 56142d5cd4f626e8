import { redactGatewayPayload } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { requireUsableLink } from '../links/link-queries.js';
import type { Actor } from '../../lib/audit.js';
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
 * (no card number beyond the last 4, never a CVC). The link's live token is retired: the next submit gets a new one.
 */
export async function logPaymentResponse(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  linkStepId: number;
  payload: string;
}): Promise<{ id: number }> {
  const payload = redactGatewayPayload(opts.payload);
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId, { forUpdate: true });
    const step = await tx.query('select 1 from link_step where id = $1 and link_id = $2', [opts.linkStepId, link.id]);
    if (step.rowCount === 0) {
      throw badRequest('linkStepId is not a step of this link.', { linkStepId: 'is not a step of this link' });
    }
    const r = await tx.query<{ id: number }>(
      'insert into payment_log (link_id, link_step_id, payload) values ($1, $2, $3) returning id',
      [link.id, opts.linkStepId, payload],
    );
    const closed = await closeOpenAttempts(tx, link.id);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'payment.failure_logged',
      linkId: link.id,
      details: {
        paymentLogId: r.rows[0]!.id,
        linkStepId: opts.linkStepId,
        kind: kindOf(payload),
        closedAttempts: closed,
      },
    });
    return { id: r.rows[0]!.id };
  });
}
