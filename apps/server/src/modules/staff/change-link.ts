import type { LinkSummary } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { applyLinkChange, type LinkChange, findLink } from '../links/index.js';
import type { Actor } from '../../lib/audit.js';
import { findLinkSummary, toLinkSummary } from '../console/index.js';

/** A coordinator cancels, expires or extends a link: the lifecycle's rules (applyLinkChange), under the row lock. */
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
