import type { LinkSummary } from '@paylink/shared';
import type { Db, Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { conflict, notFound } from '../../lib/errors.js';
import { findLink, linkState, type LinkRow } from '../links/link-queries.js';
import type { Actor } from '../../lib/audit.js';
import { revokeLinkSessions } from '../sessions/session-tokens.js';
import { findLinkSummary, toLinkSummary } from './admin-link-queries.js';

/** `reason`: the staff member's words (the console asks for one), kept in the audit row and shown in the timeline. */
export type LinkChange = ({ kind: 'cancel' } | { kind: 'expire' } | { kind: 'extend'; days: number }) & {
  reason?: string;
};

/**
 * A coordinator's change of a link's lifecycle, under the link's row lock:
 * - cancel: active or expired links; every patient session of the link is revoked at once.
 * - expire: active links; expires_at becomes now (sessions stay, and every call then answers 'Link Expired.').
 * - extend: active or expired links; expires_at = max(expires_at, now) + days.
 * Completed and cancelled links refuse with 409.
 */
export async function applyLinkChange(
  tx: Queryable,
  opts: { actor: Actor; link: LinkRow; change: LinkChange },
): Promise<void> {
  const { link, change, actor } = opts;
  const state = linkState(link);
  if (state === 'completed' || state === 'cancelled') {
    throw conflict('link_not_active', `The link is ${state}; it cannot be changed.`);
  }
  if (change.kind === 'cancel') {
    await tx.query(`update link set status = 'cancelled', cancelled_at = now(), updated_at = now() where id = $1`, [
      link.id,
    ]);
    const revoked = await revokeLinkSessions(tx, link.id);
    await writeAudit(tx, {
      ...actor,
      action: 'link.cancelled',
      linkId: link.id,
      details: { revokedSessions: revoked, ...reason(change) },
    });
  } else if (change.kind === 'expire') {
    if (state === 'expired') throw conflict('link_not_active', 'The link has already expired.');
    await tx.query('update link set expires_at = now(), updated_at = now() where id = $1', [link.id]);
    await writeAudit(tx, { ...actor, action: 'link.expired', linkId: link.id, details: reason(change) });
  } else {
    const r = await tx.query<{ expires_at: Date }>(
      `update link set expires_at = greatest(expires_at, now()) + make_interval(days => $2), updated_at = now()
       where id = $1 returning expires_at`,
      [link.id, change.days],
    );
    await writeAudit(tx, {
      ...actor,
      action: 'link.extended',
      linkId: link.id,
      details: { days: change.days, from: link.expires_at, to: r.rows[0]!.expires_at, ...reason(change) },
    });
  }
}

const reason = (c: LinkChange) => (c.reason ? { reason: c.reason } : {});

export async function changeLink(opts: {
  db: Db;
  actor: Actor;
  publicUrl: string;
  id: string;
  change: LinkChange;
}): Promise<LinkSummary> {
  return opts.db.transaction(async (tx) => {
    const link = await findLink(tx, opts.id, { forUpdate: true });
    if (!link) throw notFound('No link with this id.');
    await applyLinkChange(tx, { actor: opts.actor, link, change: opts.change });
    return toLinkSummary((await findLinkSummary(tx, link.id))!, opts.publicUrl);
  });
}
