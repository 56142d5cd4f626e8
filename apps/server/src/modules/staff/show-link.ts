import type { LinkDetail } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import type { JsonObject } from '../../db/schema.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { listSteps } from '../links/index.js';
import { findLinkSummary, toLinkSummary } from '../console/index.js';
import { showPlan } from '../plans/index.js';

/** One link with its steps, payment, plan and audit timeline (oldest first). The view itself is audited. */
export async function showLink(opts: { db: Db; actor: Actor; publicUrl: string; id: string }): Promise<LinkDetail> {
  return opts.db.transaction(async (tx) => {
    const row = await findLinkSummary(tx, opts.id);
    if (!row) throw notFound('No link with this id.');
    await writeAudit(tx, { ...opts.actor, action: 'admin.link_viewed', linkId: row.id });
    const steps = await listSteps(tx, row.id);
    const events = await typed(tx)
      .selectFrom('audit_event')
      .select(['at', 'actor_type', 'actor_id', 'action', 'request_id', 'ip', 'details'])
      .where('link_id', '=', row.id)
      .orderBy('at')
      .orderBy('id')
      // writeAudit stores details as an object.
      .$narrowType<{ details: JsonObject }>()
      .execute();
    const plan = await showPlan({ q: tx, linkId: row.id });
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
      timeline: events.map((e) => ({
        at: new Date(e.at).toISOString(),
        actorType: e.actor_type,
        actorId: e.actor_id,
        action: e.action,
        requestId: e.request_id,
        ip: e.ip,
        details: e.details ?? {},
      })),
      plan,
    };
  });
}
