import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.js';
import { redactDigitRunsDeep } from './digit-runs.js';

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

/**
 * Append one audit row. Pass the transaction that makes the change so both commit or neither does. One statement:
 * the listeners' parts (an outbound webhook's endpoint lookup, event and deliveries) ride along as CTEs of the insert.
 * Inside `batchAudits(tx, ...)` the row waits and goes with the others in one statement at the end.
 */
export async function writeAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await writeAudits(q, [e]);
}

/** Several rows in one statement (in this order), with the listeners' CTEs; held back inside `batchAudits`. */
export async function writeAudits(q: Queryable, events: readonly AuditEvent[]): Promise<void> {
  const held = heldRows.get(q);
  if (held) held.push(...events);
  else await insertAudits(q, events);
}

async function insertAudits(q: Queryable, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const st = new AuditStatement();
  let insert: string;
  if (events.length === 1) {
    const p = [...auditParams(events[0]!), auditDetailsJson(events[0]!)].map((v, i) =>
      st.param(v, i === 6 ? 'jsonb' : 'text'),
    );
    insert = `insert into audit_event (${AUDIT_COLUMNS}) values (${p.join(', ')})`;
  } else {
    // A text array per column, unnested in step; ordinality keeps the rows' ids in the order they were written.
    const rows = events.map((e) => [...auditParams(e), auditDetailsJson(e)]);
    const p = Array.from({ length: 7 }, (_, i) =>
      st.param(
        rows.map((r) => r[i] ?? null),
        'text[]',
      ),
    );
    insert = `insert into audit_event (${AUDIT_COLUMNS})
  select t.actor_type, t.actor_id, t.action, t.link_id, t.request_id, t.ip, t.details::jsonb
    from unnest(${p.join(', ')}) with ordinality as t(actor_type, actor_id, action, link_id, request_id, ip, details, n)
    order by t.n`;
  }
  // Listeners add their CTEs to the same statement: they commit (or roll back) with the rows, in the caller's
  // transaction (outbound webhooks: their events are audit actions, queued with the change).
  for (const e of events) for (const listener of auditListeners) listener(redactedEvent(e), st);
  await q.query(st.ctes.length > 0 ? `with ${st.ctes.join(',\n  ')}\n${insert}` : insert, st.params);
}

const heldRows = new WeakMap<Queryable, AuditEvent[]>();

/**
 * Runs `fn`, holding back the audit rows it writes through `tx` (a transaction), then writes them in one statement
 * (issue 30: a payment's approval writes five rows and their webhook events, one statement instead of eight). Only
 * for a transaction's callback whose rows nothing reads before the commit: a throw drops the held rows, as the
 * rollback it causes would. Nested calls on the same transaction hold into the outer one.
 */
export async function batchAudits<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  if (heldRows.has(tx)) return fn();
  const rows: AuditEvent[] = [];
  heldRows.set(tx, rows);
  try {
    const result = await fn();
    heldRows.delete(tx);
    await insertAudits(tx, rows);
    return result;
  } finally {
    heldRows.delete(tx);
  }
}

/**
 * An audit statement's parameters and the CTEs listeners add to it (`with c0 as (...), ... insert into audit_event`).
 * Data-modifying CTEs run whether or not the insert reads them, on the statement's one snapshot.
 */
export class AuditStatement {
  readonly params: unknown[] = [];
  readonly ctes: string[] = [];
  /**
   * A CTE whose rows must exist for the row to be written (changeWithAudit's `ifChanged`): a listener's writes depend
   * on it through `onlyIfGuard()`. Null: the row is written unconditionally.
   */
  guard: string | null = null;
  /** The next parameter's placeholder, `$n::type` (a CTE's select gives the database no column to infer it from). */
  param(value: unknown, type = 'text'): string {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  }
  /** ` and exists (...)` for a listener's where clause when the row is written only under a guard; else ''. */
  onlyIfGuard(): string {
    return this.guard ? ` and exists (select 1 from ${this.guard})` : '';
  }
  /** Adds `body` as a CTE; returns its name. */
  cte(body: string): string {
    const name = `c${this.ctes.length}`;
    this.ctes.push(`${name} as (${body})`);
    return name;
  }
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
 * rows the change touched, as writeAudit after it would; the listeners add their CTEs to the same statement.
 * Options (the change must then end in `returning ...`):
 * - `returning`: answers the change's rows (an upsert's row, say).
 * - `ifChanged`: the row is written only when the change touched a row, as `if (rowCount) writeAudit(...)` in a
 *   transaction would; the listeners' parts (a webhook event) wait on the same condition (`onlyIfGuard()`).
 */
export async function changeWithAudit<T = Record<string, unknown>>(
  q: Queryable,
  change: { sql: string; parameters: readonly unknown[] },
  e: AuditEvent,
  opts: { returning?: boolean; ifChanged?: boolean } = {},
): Promise<T[]> {
  const st = new AuditStatement();
  // The change keeps its own numbering ($1…): the audit's and the listeners' parameters come after it.
  st.params.push(...change.parameters);
  const changed = st.cte(change.sql);
  if (opts.ifChanged) st.guard = changed;
  const p = [...auditParams(e), auditDetailsJson(e)].map((v, i) => st.param(v, i === 6 ? 'jsonb' : 'text'));
  for (const listener of auditListeners) listener(redactedEvent(e), st);
  const held = heldRows.get(q);
  if (held) {
    // Inside batchAudits the row waits for the others: the change runs now, alone.
    const r = await q.query<T>(change.sql, [...change.parameters]);
    if (!opts.ifChanged || r.rowCount > 0) held.push(e);
    return r.rows;
  }
  const values = opts.ifChanged
    ? `select ${p.join(', ')} where exists (select 1 from ${changed})`
    : `values (${p.join(', ')})`;
  const insert = `insert into audit_event (${AUDIT_COLUMNS}) ${values}`;
  if (opts.returning) {
    const r = await q.query<T>(
      `with ${st.ctes.join(',\n  ')},\n  audit as (${insert})\nselect * from ${changed}`,
      st.params,
    );
    return r.rows;
  }
  await q.query(`with ${st.ctes.join(',\n  ')}\n${insert}`, st.params);
  return [];
}

/**
 * A change that applies only if what its caller read still holds, and its audit row, in ONE statement (issue 30,
 * decision 0230): changeWithAudit with `ifChanged`. `change` returns a row when it applied (an update's `returning`,
 * or a select of the rows it checks when nothing is to change); the audit row and the listeners' parts are written
 * only then. Answers whether it applied (false: nothing was written; the caller reads again).
 */
export async function guardedChangeWithAudit(
  q: Queryable,
  change: { sql: string; parameters: readonly unknown[] },
  e: AuditEvent,
): Promise<boolean> {
  return (await changeWithAudit(q, change, e, { ifChanged: true, returning: true })).length > 0;
}

/**
 * The row's details as stored: every string with its digit runs redacted (decision 0240), so no card number typed
 * into a field, a user agent or a gateway's message reaches the audit log, whichever use case wrote it.
 */
export function auditDetailsJson(e: Pick<AuditEvent, 'details'>): string {
  return JSON.stringify(redactDigitRunsDeep(e.details ?? {}));
}

/** The event as listeners see it (an outbound webhook's payload): its details redacted as the row's are. */
function redactedEvent(e: AuditEvent): AuditEvent {
  return e.details ? { ...e, details: redactDigitRunsDeep(e.details) } : e;
}

export function auditParams(e: Omit<AuditEvent, 'details'>): unknown[] {
  return [e.actorType, e.actorId ?? null, e.action, e.linkId ?? null, e.requestId ?? null, e.ip ?? null];
}

/** Adds its part to the statement that writes the row `e` (synchronously: CTEs and parameters, no query of its own). */
export type AuditListener = (e: AuditEvent, st: AuditStatement) => void;
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
