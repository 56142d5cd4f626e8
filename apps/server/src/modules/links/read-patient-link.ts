import { LINK_ID_PATTERN } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../lib/audit.js';
import type { AuditBatch } from '../../lib/audit-batch.js';
import { LIVE_SESSION_WHERE, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';
import {
  LINK_NOT_AUTHORIZED,
  linkState,
  throwForLinkState,
  type LinkRow,
  type PaymentRow,
  type StepRow,
} from './link-queries.js';
import { LinkStateError } from '../../lib/errors.js';

/**
 * A patient's read of their link in ONE read-only statement (issue 17): the session row check, the link, its payment
 * and (for the continue check) its steps, as plain columns of one row: only what the answers use (decision 0182;
 * building the whole rows as jsonb cost PostgreSQL about twice the CPU). The link, payment and steps come only
 * through a live session row of that link, so a dead or foreign session reads nothing. A served read (live session,
 * usable link, steps and payment there when required, nothing awaiting reconciliation) then waits for its audit row
 * in the app's AuditBatch (decision 0179: many reads' rows share one insert and one commit) and returns only once
 * that row is committed, so every answer served has its row; a refused read writes nothing. The batch failing fails
 * the read (503, `AuditUnavailableError`) before any patient data leaves.
 */
export interface PatientLinkRead {
  link: PatientLink;
  payment: PatientPayment | null;
  /** In position order; empty unless the read asked for them (`requireSteps`). */
  steps: PatientStep[];
  sessionExpiresAt: Date;
  /** An earlier payment attempt waits for reconciliation: the caller reconciles and reads again (no audit row yet). */
  needsReconcile: boolean;
}

/** The link's columns the patient's answers use (toPatientInfo) and its state. */
const LINK_COLUMNS = [
  'status',
  'expires_at',
  'first_name',
  'last_name',
  'address',
  'city',
  'state',
  'zip_code',
  'phone',
  'email',
  'is_payment_link_locked',
  'payor_name',
  'payor_email',
] as const satisfies readonly (keyof LinkRow)[];
export type PatientLink = Pick<LinkRow, (typeof LINK_COLUMNS)[number]>;
export type PatientPayment = Pick<PaymentRow, 'payment_source_id' | 'payment_type_id' | 'amount_cents'>;
export type PatientStep = Pick<StepRow, 'id' | 'route_path' | 'document_url' | 'status_id'>;

interface ReadRow extends Record<(typeof LINK_COLUMNS)[number], unknown> {
  session_expires_at: Date | null;
  db_now: Date;
  /** null when no live session row of this link (then every link column is null too). */
  status: PatientLink['status'] | null;
  payment_source_id: number | null;
  payment_type_id: number | null;
  amount_cents: number | null;
  /** [id, route_path, document_url, status_id] per step, in position order; null without steps or not asked. */
  steps: [number, string, string | null, number][] | null;
  pending: boolean;
}

/** The statement's text per variant, built once (the same string each time: no rebuilding or rehashing per read). */
const readSqls = new Map<string, string>();
function readSql(withSteps: boolean, checkReconcile: boolean): string {
  const key = `${withSteps}:${checkReconcile}`;
  let sql = readSqls.get(key);
  if (sql) return sql;
  // Everything hangs off the live session row: no session row of this link, no link data (one row all the same).
  const steps = withSteps
    ? `(select json_agg(json_build_array(st.id, st.route_path, st.document_url, st.status_id) order by st.position)
         from link_step st where st.link_id = l.id)`
    : 'null';
  const pending = checkReconcile
    ? `exists (select 1 from payment_attempt a where a.link_id = l.id and a.session_token is not null
         and a.status in ('open', 'unknown', 'closed') and a.reconcile_due_at is not null)`
    : 'false';
  sql = `select s.expires_at as session_expires_at, now() as db_now, ${LINK_COLUMNS.map((c) => `l.${c}`).join(', ')},
       p.payment_source_id, p.payment_type_id, p.amount_cents, ${steps} as steps, ${pending} as pending
  from (select) one
  left join patient_session s on ${LIVE_SESSION_WHERE('s', '$1', '$2')}
  left join link l on l.id = s.link_id
  left join payment p on p.link_id = l.id`;
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
  /** Read the steps, and serve (and audit) only when the link has a step list and a payment choice (the continue check). */
  requireSteps?: boolean;
  /** Report attempts awaiting reconciliation and hold the audit row back while there are any. */
  checkReconcile?: boolean;
}): Promise<PatientLinkRead> {
  const { claim } = opts;
  if (!LINK_ID_PATTERN.test(claim.linkId)) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  const requireSteps = !!opts.requireSteps;
  const r = await opts.db.query<ReadRow>(
    readSql(requireSteps, !!opts.checkReconcile),
    [claim.sessionId, claim.linkId],
    { prepared: true },
  );
  const row = r.rows[0]!;
  if (!row.session_expires_at) throw sessionEnded();
  const link = row.status === null ? null : (row as unknown as PatientLink);
  const payment: PatientPayment | null =
    row.amount_cents === null
      ? null
      : {
          payment_source_id: row.payment_source_id!,
          payment_type_id: row.payment_type_id!,
          amount_cents: row.amount_cents,
        };
  const steps: PatientStep[] = (row.steps ?? []).map(([id, route_path, document_url, status_id]) => ({
    id,
    route_path,
    document_url,
    status_id,
  }));
  const read = {
    link: link!,
    payment,
    steps,
    sessionExpiresAt: new Date(row.session_expires_at),
    needsReconcile: row.pending,
  };
  // Reconciliation may complete the link: the caller decides after it, on a fresh read.
  if (read.needsReconcile && link) return read;
  if (!link) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  // The database's clock decides the link's state (expired or not), as it decided the session's.
  throwForLinkState(linkState(link, new Date(row.db_now)));
  // Served: live session, usable link, the steps and payment when required, nothing awaiting reconciliation.
  const served = !read.needsReconcile && (!requireSteps || (steps.length > 0 && payment !== null));
  // Committed before the answer leaves (a rejected write is the request's 503); a read not served has no row.
  if (served) await opts.audits.write({ ...opts.actor, action: opts.action, linkId: claim.linkId });
  return read;
}
