import type { AuditEvent } from '../../lib/audit.js';

/** Who acts, for the audit row each use case writes in its own transaction. */
export type Actor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

/** The system acting on its own (boot seeding, demo data). */
export const SYSTEM_ACTOR: Actor = { actorType: 'system', actorId: null, requestId: null, ip: null };
