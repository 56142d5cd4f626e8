import { LINK_ID_PATTERN } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../lib/audit.js';
import type { AuditBatch } from '../../lib/audit-batch.js';
import { LIVE_SESSION_SQL, sessionEnded, type SessionClaim } from '../sessions/session-tokens.js';
import {
  LINK_NOT_AUTHORIZED,
  USABLE_LINK_SQL,
  linkState,
  throwForLinkState,
  type LinkRow,
  type PaymentRow,
  type StepRow,
} from './link-queries.js';
import { LinkStateError } from '../../lib/errors.js';

/**
 * A patient's read of their link in ONE read-only statement (issue 17): the session row check, the link, its payment
 * and steps, and whether the read is served (`served`: the session is live, the link usable, the steps and payment
 * there when required, nothing awaiting reconciliation). A served read then waits for its audit row in the app's
 * AuditBatch (decision 0179: many reads' rows share one insert and one commit) and returns only once that row is
 * committed, so every answer served has its row; a refused read writes nothing. The batch failing fails the read
 * (503, `AuditUnavailableError`) before any patient data leaves.
 */
export interface PatientLinkRead {
  link: LinkRow;
  payment: PaymentRow | null;
  steps: StepRow[];
  sessionExpiresAt: Date;
  /** An earlier payment attempt waits for reconciliation: the caller reconciles and reads again (no audit row yet). */
  needsReconcile: boolean;
}

const dates = <T>(row: T, keys: string[]): T => {
  const r = row as Record<string, unknown>;
  for (const k of keys) if (typeof r[k] === 'string') r[k] = new Date(r[k] as string);
  return row;
};

/** The statement's text per variant, built once (the same string each time: no rebuilding or rehashing per read). */
const readSqls = new Map<string, string>();
function readSql(requireSteps: boolean, checkReconcile: boolean): string {
  const key = `${requireSteps}:${checkReconcile}`;
  let sql = readSqls.get(key);
  if (sql) return sql;
  const pending = checkReconcile
    ? `exists (select 1 from payment_attempt where link_id = $2 and session_token is not null
         and status in ('open', 'unknown', 'closed') and reconcile_due_at is not null)`
    : 'false';
  const served = [
    'exists (select 1 from s)',
    `exists (select 1 from l where ${USABLE_LINK_SQL('l')})`,
    ...(requireSteps
      ? ['exists (select 1 from link_step where link_id = $2)', 'exists (select 1 from payment where link_id = $2)']
      : []),
    `not (select pending from r)`,
  ].join(' and ');
  sql = `with s as (${LIVE_SESSION_SQL('$1', '$2')}),
          l as (select * from link where id = $2),
          r as (select ${pending} as pending)
     select (select expires_at from s) as session_expires_at,
            (select to_jsonb(l) from l) as link,
            (select to_jsonb(p) from payment p where p.link_id = $2) as payment,
            (select coalesce(jsonb_agg(to_jsonb(st) order by st.position), '[]'::jsonb)
               from link_step st where st.link_id = $2) as steps,
            (select pending from r) as pending, ${served} as served, now() as db_now`;
  readSqls.set(key, sql);
  return sql;
}

export async function readPatientLink(opts: {
  db: Queryable;
  /** Where a served read's audit row is written (and awaited). */
  audits: AuditBatch;
  claim: SessionClaim;
  actor: Actor;
  action: string;
  /** Serve (and audit) only when the link has a step list and a payment choice (the continue check). */
  requireSteps?: boolean;
  /** Report attempts awaiting reconciliation and hold the audit row back while there are any. */
  checkReconcile?: boolean;
}): Promise<PatientLinkRead> {
  const { claim } = opts;
  if (!LINK_ID_PATTERN.test(claim.linkId)) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  const r = await opts.db.query<{
    session_expires_at: Date | null;
    link: LinkRow | null;
    payment: PaymentRow | null;
    steps: StepRow[];
    pending: boolean;
    served: boolean;
    db_now: Date;
  }>(readSql(!!opts.requireSteps, !!opts.checkReconcile), [claim.sessionId, claim.linkId], { prepared: true });
  const row = r.rows[0]!;
  if (!row.session_expires_at) throw sessionEnded();
  const link = row.link
    ? dates(row.link, ['expires_at', 'created_at', 'updated_at', 'cancelled_at', 'completed_at'])
    : null;
  const read = {
    link: link!,
    payment: row.payment ? dates(row.payment, ['paid_at', 'created_at', 'updated_at']) : null,
    steps: row.steps.map((s) => dates(s, ['created_at', 'updated_at', 'completed_at'])),
    sessionExpiresAt: new Date(row.session_expires_at),
    needsReconcile: row.pending,
  };
  // Reconciliation may complete the link: the caller decides after it, on a fresh read.
  if (read.needsReconcile && link) return read;
  if (!link) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  // The database's clock decided `served`; the same clock decides the answer.
  throwForLinkState(linkState(link, new Date(row.db_now)));
  // Committed before the answer leaves (a rejected write is the request's 503); a read not served has no row.
  if (row.served) await opts.audits.write({ ...opts.actor, action: opts.action, linkId: claim.linkId });
  return read;
}
