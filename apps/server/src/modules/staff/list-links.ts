import type { LinkSummary } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { STATE_SQL, SUMMARY_SELECT, toLinkSummary, type LinkSummaryRow } from '../console/index.js';

/** Newest first, optionally by derived state; one audit row for the listing (patient names are patient data). */
export async function listLinks(opts: {
  db: Db;
  actor: Actor;
  publicUrl: string;
  status?: string;
  limit: number;
  offset: number;
}): Promise<{ links: LinkSummary[]; total: number }> {
  const where = opts.status ? `where ${STATE_SQL[opts.status]}` : '';
  return opts.db.transaction(async (tx) => {
    const rows = await tx.query<LinkSummaryRow>(
      `${SUMMARY_SELECT} ${where} order by l.created_at desc, l.id limit $1 offset $2`,
      [opts.limit, opts.offset],
    );
    const total = await tx.query<{ n: number }>(`select count(*)::int as n from link l ${where}`);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.links_listed',
      details: { status: opts.status ?? null, linkIds: rows.rows.map((r) => r.id) },
    });
    return { links: rows.rows.map((r) => toLinkSummary(r, opts.publicUrl)), total: total.rows[0]!.n };
  });
}
