import type { Queryable } from '../../db/client.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';

/** Who is asking: the request facts every sign-in audit row carries (from auditContext(request)). */
export type AuditActor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

export function auditAuth(
  q: Queryable,
  actor: AuditActor,
  action: string,
  linkId: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  return writeAudit(q, { ...actor, action, linkId, details });
}
