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

/** Append one audit row. Pass the transaction that makes the change so both commit or neither does. */
export async function writeAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await q.query(
    `insert into audit_event (actor_type, actor_id, action, link_id, request_id, ip, details)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      e.actorType,
      e.actorId ?? null,
      e.action,
      e.linkId ?? null,
      e.requestId ?? null,
      e.ip ?? null,
      JSON.stringify(e.details ?? {}),
    ],
  );
}

/** The actor and request facts of an HTTP request, for writeAudit. */
export function auditContext(request: FastifyRequest): Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'> {
  if (request.staff)
    return { actorType: 'staff', actorId: request.staff.userId, requestId: request.id, ip: request.ip };
  if (request.patient) {
    return { actorType: 'link', actorId: request.patient.sessionId, requestId: request.id, ip: request.ip };
  }
  return { actorType: 'system', actorId: null, requestId: request.id, ip: request.ip };
}
