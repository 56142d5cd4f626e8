import type { LinkSummary } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/audit.js';
import { sql } from 'kysely';
import { typed } from '../../db/typed.js';
import { selectLinkSummaries, toLinkSummary, whereState } from '../console/index.js';

/** Newest first, optionally by derived state; one audit row for the listing (patient names are patient data). */
export async function listLinks(opts: {
  db: Db;
  actor: Actor;
  publicUrl: string;
  status?: string;
  limit: number;
  offset: number;
}): Promise<{ links: LinkSummary[]; total: number }> {
  return opts.db.transaction(async (tx) => {
    let rows = selectLinkSummaries(tx);
    let count = typed(tx)
      .selectFrom('link as l')
      .select(sql<number>`count(*)::int`.as('n'));
    if (opts.status) {
      rows = rows.where(whereState(opts.status));
      count = count.where(whereState(opts.status));
    }
    const links = await rows
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    const total = await count.executeTakeFirstOrThrow();
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.links_listed',
      details: { status: opts.status ?? null, linkIds: links.map((r) => r.id) },
    });
    return { links: links.map((r) => toLinkSummary(r, opts.publicUrl)), total: total.n };
  });
}
