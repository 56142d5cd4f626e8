import type { LinkDetail } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { listSteps } from '../links/index.js';
import { findLinkSummary, toLinkSummary } from '../console/index.js';

interface AuditRow {
  at: Date;
  actor_type: 'link' | 'staff' | 'system';
  actor_id: string | null;
  action: string;
  request_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

/** One link with its steps, payment and audit timeline (oldest first). The view itself is audited. */
export async function showLink(opts: { db: Db; actor: Actor; publicUrl: string; id: string }): Promise<LinkDetail> {
  return opts.db.transaction(async (tx) => {
    const row = await findLinkSummary(tx, opts.id);
    if (!row) throw notFound('No link with this id.');
    await writeAudit(tx, { ...opts.actor, action: 'admin.link_viewed', linkId: row.id });
    const steps = await listSteps(tx, row.id);
    const events = await tx.query<AuditRow>(
      `select at, actor_type, actor_id, action, request_id, ip, details from audit_event
       where link_id = $1 order by at, id`,
      [row.id],
    );
    return {
      ...toLinkSummary(row, opts.publicUrl),
      address: row.address,
      city: row.city,
      state: row.state,
      zipCode: row.zip_code,
      steps: steps.map((s) => ({
        linkStepId: s.id,
        routePath: s.route_path,
        documentUrl: s.document_url,
        linkStepStatusId: s.status_id,
        completedAt: s.completed_at ? new Date(s.completed_at).toISOString() : null,
      })),
      timeline: events.rows.map((e) => ({
        at: new Date(e.at).toISOString(),
        actorType: e.actor_type,
        actorId: e.actor_id,
        action: e.action,
        requestId: e.request_id,
        ip: e.ip,
        details: e.details ?? {},
      })),
    };
  });
}
