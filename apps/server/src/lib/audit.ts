import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.js';

export type ActorType = 'link' | 'staff' | 'system';

export interface AuditEvent {
  actorType: ActorType;
  actorId?: string | null;
  action: string;
  linkId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Who acts, for the audit row each use case writes in its own transaction. */
export type Actor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

/** The system acting on its own (boot seeding, demo data, the worker). */
export const SYSTEM_ACTOR: Actor = { actorType: 'system', actorId: null, requestId: null, ip: null };

/**
 * Staff reads of patient data: audited (who saw what, when: HIPAA), never a change. The board's change feed ignores
 * them (a read must not wake the page that made it, which would read again), and neither the link's timeline nor the
 * dispute evidence pack lists them as events (issue 29, item 1). Every staff read action is named here:
 * audit-actions.test.ts finds the read actions in the source and fails on one that is not.
 */
export const STAFF_READ_ACTIONS = [
  'admin.link_viewed',
  'admin.links_listed',
  'admin.payments_listed',
  'admin.payments_exported',
  'admin.refunds_viewed',
  'admin.refund_options_viewed',
  'admin.flagged_approvals_listed',
  'admin.funnel_viewed',
  'admin.plans_upcoming_listed',
  'documents.listed',
  'document.downloaded',
  'document.viewed',
  'document.original_read',
  'document.file_read',
  'link.messages_read',
  'messaging.opt_outs_read',
  'evidence.downloaded',
  'export.downloaded',
];

/**
 * Patient reads that each page load repeats (the plan behind the payment and confirmation pages): not events. The
 * timeline leaves them out and the board's change feed ignores them; the evidence pack's audit list keeps them.
 */
export const PATIENT_READ_ACTIONS = ['plan.read'];

/**
 * Patient reads that are the patient's activity on the link (opening it, the information page, a document): they
 * show on the timeline and move the board's "last activity".
 */
export const PATIENT_ACTIVITY_READS = ['patient.info_read', 'steps.read', 'document.viewed', 'document.file_read'];

export const AUDIT_COLUMNS = 'actor_type, actor_id, action, link_id, request_id, ip, details';

/** Append one audit row. Pass the transaction that makes the change so both commit or neither does. */
export async function writeAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await q.query(`insert into audit_event (${AUDIT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)`, [
    ...auditParams(e),
    JSON.stringify(e.details ?? {}),
  ]);
  // Listeners run in the same transaction (outbound webhooks: their events are audit actions, queued with the change).
  for (const listener of auditListeners) await listener(q, e);
}

/**
 * The audit insert as a data-modifying CTE for one-statement reads: `insert ... select <params> from <condition>`, so
 * the row is written exactly when the condition's rows exist. Listeners do not run: reads are never webhook events.
 * `p` numbers the parameters from `first`; `auditParams` gives their values in that order.
 */
export function auditInsertSql(first: number, from: string): string {
  const p = (i: number) => `$${first + i}`;
  return `insert into audit_event (${AUDIT_COLUMNS})
    select ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, '{}'::jsonb from ${from} returning 1`;
}
/**
 * A change and its audit row in ONE statement (issue 30): `change` (an insert, update or delete, numbered from $1, as
 * Kysely's compile() gives it) runs as a data-modifying CTE beside the audit insert; the audit row is written whatever
 * rows the change touched, as writeAudit after it would. Listeners run after, as writeAudit's do.
 */
export async function changeWithAudit(
  q: Queryable,
  change: { sql: string; parameters: readonly unknown[] },
  e: AuditEvent,
): Promise<void> {
  const p = (i: number) => `$${change.parameters.length + 1 + i}`;
  await q.query(
    `with change as (${change.sql})
     insert into audit_event (${AUDIT_COLUMNS}) values (${[0, 1, 2, 3, 4, 5, 6].map(p).join(', ')})`,
    [...change.parameters, ...auditParams(e), JSON.stringify(e.details ?? {})],
  );
  for (const listener of auditListeners) await listener(q, e);
}

export function auditParams(e: Omit<AuditEvent, 'details'>): unknown[] {
  return [e.actorType, e.actorId ?? null, e.action, e.linkId ?? null, e.requestId ?? null, e.ip ?? null];
}

export type AuditListener = (q: Queryable, e: AuditEvent) => Promise<void>;
const auditListeners = new Set<AuditListener>();

/** Registered once by the composition root (app.ts); a Set, so building several apps in one process adds it once. */
export function addAuditListener(listener: AuditListener): void {
  auditListeners.add(listener);
}

/** The actor and request facts of an HTTP request, for writeAudit. */
export function auditContext(request: FastifyRequest): Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'> {
  if (request.staff)
    return { actorType: 'staff', actorId: request.staff.userId, requestId: request.id, ip: request.ip };
  const patient = request.patient ?? request.patientClaim;
  if (patient) {
    return { actorType: 'link', actorId: patient.sessionId, requestId: request.id, ip: request.ip };
  }
  return { actorType: 'system', actorId: null, requestId: request.id, ip: request.ip };
}
