import {
  DocumentStepRoutes,
  LINK_ID_PATTERN,
  LinkMessages,
  StepRoutes,
  StepStatus,
  type StepRoute,
  type UpdateStepResult,
} from '@paylink/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Queryable } from '../../db/client.js';
import type { DB } from '../../db/schema.js';
import { typed } from '../../db/typed.js';
import { guardedChangeWithAudit, writeAudit, writeAudits, type Actor } from '../../lib/audit.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { StepDocuments } from '../../context.js';
import {
  checkSessionRow,
  liveSessionSql,
  revokeLinkSessions,
  sessionEnded,
  type SessionClaim,
} from '../../http/session-tokens.js';
import { linkState, listSteps, USABLE_LINK_SQL, type LinkRow, type StepRow } from './link-queries.js';

/**
 * The one owner of a link's lifecycle (issue 10 item 4, docs/decisions/0105): every write of a link's status or
 * expiry and of its steps (creation, status, document URL) goes through this file, with its audit rows, in the
 * caller's transaction (the caller holds the link's row lock; moveStep instead guards its one write on what it read,
 * decision 0230). The rules live here once:
 *
 *   link:  active ──payment approved──▶ completed        active|expired ──cancel──▶ cancelled
 *          active ──expire──▶ expired (derived: expires_at ≤ now)   active|expired ──extend──▶ active
 *   step:  1 not started ──▶ 2 in progress ──▶ 4 completed, in order; a document step needs its document signed;
 *          the payment and confirmation steps complete only with an approved payment, after every earlier step.
 *
 * What a document step's document is, is the signing module's business: it comes in through `StepDocuments`
 * (a port in context.ts, wired in the composition root), so this module never imports signing and signing may import it.
 */

type LockedLink = Pick<LinkRow, 'id' | 'status' | 'expires_at'>;

const NOT_ACTIVE: Record<string, string> = {
  expired: LinkMessages.expired,
  cancelled: LinkMessages.cancelled,
  completed: LinkMessages.completed,
};

/**
 * Writes the link's ordered step list, replacing an earlier one (its steps go; payment log rows keep no reference).
 * Patient information is stored completed: submitting it is what creates the list (docs/decisions/0003).
 * `allCompleted` is for demo data only (a completed demo link has every step done and no documents).
 */
export async function writeStepList(
  tx: Queryable,
  o: {
    actor: Actor;
    link: LockedLink;
    routes: readonly string[];
    replacing: readonly { id: number }[];
    documents: Pick<StepDocuments, 'prepare'> | null;
    details?: Record<string, unknown>;
    allCompleted?: boolean;
  },
): Promise<StepRow[]> {
  const { link } = o;
  if (o.replacing.length > 0) {
    const ids = o.replacing.map((s) => s.id);
    await typed(tx)
      .updateTable('payment_log')
      .set({ link_step_id: null })
      .where('link_step_id', '=', sql<number>`any(${ids}::int[])`)
      .execute();
    await typed(tx).deleteFrom('link_step').where('link_id', '=', link.id).execute();
  }
  // One multi-row insert for the whole list (issue 30); what it returns, with the documents' URLs, is the new list.
  let steps: StepRow[] = [];
  if (o.routes.length > 0) {
    steps = await typed(tx)
      .insertInto('link_step')
      .values(
        o.routes.map((route, i) => {
          const done = o.allCompleted || route === StepRoutes.patientInfo;
          return {
            link_id: link.id,
            position: i + 1,
            route_path: route,
            status_id: done ? StepStatus.Completed : StepStatus.NotStarted,
            completed_at: done ? sql`now()` : null,
          };
        }),
      )
      .returningAll()
      .execute();
  }
  const urls = o.documents ? await o.documents.prepare(tx, { linkId: link.id }) : new Map<number, string | null>();
  await writeAudit(tx, {
    ...o.actor,
    action: o.replacing.length > 0 ? 'steps.rebuilt' : 'steps.created',
    linkId: link.id,
    details: { routes: o.routes, ...o.details },
  });
  // now() is the transaction's clock: the URL update's updated_at is the insert's.
  return steps
    .map((st) => (urls.has(st.id) ? { ...st, document_url: urls.get(st.id)! } : st))
    .sort((a, b) => a.position - b.position);
}

/**
 * The signing module records where its steps' documents are (null: the step has none), all in ONE statement with
 * `change` (its new submissions' insert, numbered from $1 as Kysely's compile() gives it) as a CTE beside the update
 * (issue 30: an insert and an update per document before).
 */
export async function setStepDocumentUrls(
  tx: Queryable,
  urls: ReadonlyMap<number, string | null>,
  change?: { sql: string; parameters: readonly unknown[] },
): Promise<void> {
  if (urls.size === 0 && !change) return;
  const params = [...(change?.parameters ?? [])];
  params.push(JSON.stringify([...urls].map(([id, url]) => ({ id, url }))));
  const update = `update link_step st set document_url = u.url, updated_at = now()
      from jsonb_to_recordset($${params.length}::jsonb) as u(id integer, url text)
     where st.id = u.id`;
  await tx.query(change ? `with c0 as (${change.sql})\n${update}` : update, params);
}

/** What moveStep reads, in one statement: the link, its steps and the target step's facts. */
interface MoveRead {
  id: string;
  status: LinkRow['status'];
  expires_at: LinkRow['expires_at'];
  session_live: boolean;
  /** [id, route_path, status_id] per step, in position order. */
  steps: [number, string, number][];
  /** The step exists (on any link): 403 for another link's step, else 404. */
  step_exists: boolean;
  document_complete: boolean;
}

/** Tries of read-then-guarded-write before giving up (each refused write means something else changed the link). */
const MOVE_TRIES = 3;

/**
 * A step becomes in progress (2) or completed (4), in order (PUT /api/linksteps). Refused with 409 on a link that is
 * not active, out of order, for the payment step (only an approved payment completes it), for an unsigned document,
 * and for reopening a completed step; 403 for another link's step; 404 for an unknown link or step.
 *
 * Optimistic, without a transaction (issue 30, decision 0230): ONE statement reads the link, its steps and the
 * step's document state (and the patient's session, `session`), the rules decide in JS, and ONE statement writes the
 * step and its audit row, applied only while the step's status is the one read and the link is still active (it waits
 * for a change of the link in flight and then sees it). A refused write reads again, so a cancel, expiry or rebuild
 * in between answers as it would have under the link's lock. Earlier steps only ever complete (a rebuild replaces the
 * steps, and with them the step's id), so the step's own row and the link's state are all the write has to re-check.
 * `q` may be a transaction of the caller's.
 */
export async function moveStep(
  q: Queryable,
  o: {
    actor: Actor;
    linkId: string;
    linkStepId: number;
    statusId: 2 | 4;
    documents: Pick<StepDocuments, 'completeSql'>;
    /** A patient's session: a revoked or expired one is refused 401 before anything is written. */
    session?: SessionClaim;
  },
): Promise<UpdateStepResult> {
  for (let tries = 1; ; tries++) {
    const result = await tryMoveStep(q, o);
    if (result) return result;
    if (tries >= MOVE_TRIES) {
      throw new AppError('database_unavailable', 'The link changed while saving the step. Please try again.');
    }
  }
}

/** One read and (when the rules allow) one guarded write; null when the write found the link or step changed. */
async function tryMoveStep(q: Queryable, o: Parameters<typeof moveStep>[1]): Promise<UpdateStepResult | null> {
  const { linkId, statusId, session } = o;
  // True when no session is asked about.
  const sessionLive = session ? liveSessionSql(session) : sql<boolean>`true`;
  const row = LINK_ID_PATTERN.test(linkId)
    ? await typed(q)
        .selectFrom('link as l')
        .select(['l.id', 'l.status', 'l.expires_at'])
        .select(sessionLive.as('session_live'))
        .select(
          sql<MoveRead['steps']>`coalesce((select json_agg(json_build_array(st.id, st.route_path, st.status_id)
            order by st.position) from link_step st where st.link_id = l.id), '[]')`.as('steps'),
        )
        .select(sql<boolean>`exists (select 1 from link_step st where st.id = ${o.linkStepId})`.as('step_exists'))
        .select(o.documents.completeSql({ linkId, linkStepId: o.linkStepId }).as('document_complete'))
        .where('l.id', '=', linkId)
        .$castTo<MoveRead>()
        .executeTakeFirst()
    : undefined;
  if (!row) {
    if (session) await checkSessionRow(q, session);
    throw notFound('No such link.');
  }
  if (!row.session_live) throw sessionEnded();
  const state = linkState(row);
  if (state !== 'active') throw new AppError('link_not_active', NOT_ACTIVE[state]!);
  const steps = row.steps.map(([id, route_path, status_id]) => ({ id, route_path, status_id }));
  const index = steps.findIndex((s) => s.id === o.linkStepId);
  const step = steps[index];
  if (!step) {
    if (!row.step_exists) throw notFound('No such step.');
    throw forbidden('This step belongs to another link.');
  }
  const result: UpdateStepResult = {
    linkStepId: step.id,
    linkStepStatusId: statusId,
    routePath: step.route_path,
    nextRoutePath: steps[index + 1]?.route_path ?? null,
  };
  if (statusId === StepStatus.Completed && step.route_path === StepRoutes.payment) {
    throw new AppError('payment_step', 'The payment step is completed by an approved payment only.');
  }
  if (statusId === StepStatus.InProgress && step.status_id === StepStatus.Completed) {
    throw new AppError('step_completed', 'This step is already complete.');
  }
  const open = steps.slice(0, index).find((s) => s.status_id !== StepStatus.Completed);
  if (open) throw new AppError('step_order', `Complete the earlier step ${open.route_path} first.`);
  if (
    statusId === StepStatus.Completed &&
    step.status_id !== StepStatus.Completed &&
    DocumentStepRoutes.includes(step.route_path as StepRoute) &&
    !row.document_complete
  ) {
    throw new AppError('document_not_signed', 'Sign the document before continuing.');
  }

  // What was read still holds: the step's status, the link active (waiting for a change of it in flight: `for
  // share`), the session live.
  const unchanged = (eb: ExpressionBuilder<DB, 'link_step'>) =>
    eb.and([
      eb('id', '=', step.id),
      eb('link_id', '=', linkId),
      eb('status_id', '=', step.status_id),
      sql<boolean>`exists (select 1 from link l where l.id = ${linkId} and ${sql.raw(USABLE_LINK_SQL('l'))} for share)`,
      sessionLive,
    ]);
  // An unchanged status writes the audit row only (as before).
  const change =
    step.status_id !== statusId
      ? typed(q)
          .updateTable('link_step')
          .set({
            status_id: statusId,
            updated_at: sql`now()`,
            completed_at: statusId === StepStatus.Completed ? sql`now()` : null,
          })
          .where(unchanged)
          .returning('id')
          .compile()
      : typed(q).selectFrom('link_step').select('id').where(unchanged).compile();
  const applied = await guardedChangeWithAudit(q, change, {
    ...o.actor,
    action: 'step.updated',
    linkId,
    details: { linkStepId: step.id, routePath: step.route_path, from: step.status_id, to: statusId },
  });
  return applied ? result : null;
}

/** The first step before the payment that is not complete, or null when the patient may pay (issue 10, item 2). */
export async function firstOpenStepBeforePayment(q: Queryable, linkId: string): Promise<string | null> {
  const steps = await listSteps(q, linkId);
  const payment = steps.findIndex((s) => s.route_path === StepRoutes.payment);
  if (payment < 0) return StepRoutes.payment;
  return steps.slice(0, payment).find((s) => s.status_id !== StepStatus.Completed)?.route_path ?? null;
}

export const stepsIncomplete = (route: string) =>
  new AppError(
    'steps_incomplete',
    `Finish the earlier steps (your details, the invoice, ID and contract) before paying: ${route} is not complete yet.`,
  );

/**
 * An approved payment completes the payment and confirmation steps and the link, with the same order rule as
 * moveStep: every step before the payment must be complete (409 steps_incomplete otherwise; the caller decides what
 * to do with an approval it cannot apply). `by` says what completed it, in the audit rows.
 */
export async function completeByPayment(
  tx: Queryable,
  o: {
    actor: Actor;
    link: LockedLink;
    by: 'payment' | 'reconciliation' | 'demo';
    /** The caller ran firstOpenStepBeforePayment in this transaction, under the link's lock, and found none. */
    stepsChecked?: boolean;
  },
): Promise<void> {
  const { link } = o;
  // No link-state check: an approval the gateway made must be recorded even if the link expired meanwhile.
  const open = o.stepsChecked ? null : await firstOpenStepBeforePayment(tx, link.id);
  if (open) throw stepsIncomplete(open);
  // The payment and confirmation steps and the link complete in one statement (issue 30).
  const { rows: steps } = await tx.query<{ id: number; route_path: string }>(
    `with s as (update link_step set status_id = $1, completed_at = coalesce(completed_at, now()), updated_at = now()
                 where link_id = $2 and route_path = any($3::text[]) returning id, route_path),
          l as (update link set status = 'completed', completed_at = now(), updated_at = now() where id = $2)
     select id, route_path from s`,
    [StepStatus.Completed, link.id, [StepRoutes.payment, StepRoutes.confirmation]],
  );
  // One statement for the steps' and the link's rows.
  await writeAudits(tx, [
    ...steps.map((s) => ({
      ...o.actor,
      action: 'step.completed',
      linkId: link.id,
      details: { linkStepId: s.id, routePath: s.route_path, by: o.by },
    })),
    { ...o.actor, action: 'link.completed', linkId: link.id, details: { by: o.by } },
  ]);
}

/** `reason`: the staff member's words (the console asks for one), kept in the audit row and shown in the timeline. */
export type LinkChange = ({ kind: 'cancel' } | { kind: 'expire' } | { kind: 'extend'; days: number }) & {
  reason?: string;
};

/**
 * A coordinator's change of a link's lifecycle (docs/decisions/0008):
 * - cancel: active or expired links; every patient session of the link is revoked at once.
 * - expire: active links; expires_at becomes now (sessions stay, and every call then answers 'Link Expired.').
 *   `backdateDays` (demo data only) puts expires_at that many days in the past.
 * - extend: active or expired links; expires_at = max(expires_at, now) + days.
 * Completed and cancelled links refuse with 409.
 */
export async function applyLinkChange(
  tx: Queryable,
  opts: { actor: Actor; link: LockedLink; change: LinkChange; backdateDays?: number },
): Promise<void> {
  const { link, change, actor } = opts;
  const state = linkState(link);
  if (state === 'completed' || state === 'cancelled') {
    throw new AppError('link_not_active', `The link is ${state}; it cannot be changed.`);
  }
  const reason = change.reason ? { reason: change.reason } : {};
  if (change.kind === 'cancel') {
    await typed(tx)
      .updateTable('link')
      .set({ status: 'cancelled', cancelled_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', link.id)
      .execute();
    const revoked = await revokeLinkSessions(tx, link.id);
    await writeAudit(tx, {
      ...actor,
      action: 'link.cancelled',
      linkId: link.id,
      details: { revokedSessions: revoked, ...reason },
    });
  } else if (change.kind === 'expire') {
    if (state === 'expired') throw new AppError('link_not_active', 'The link has already expired.');
    await typed(tx)
      .updateTable('link')
      .set({ expires_at: sql`now() - make_interval(days => ${opts.backdateDays ?? 0})`, updated_at: sql`now()` })
      .where('id', '=', link.id)
      .execute();
    await writeAudit(tx, {
      ...actor,
      action: 'link.expired',
      linkId: link.id,
      details: opts.backdateDays ? { ...reason, demo: true } : reason,
    });
  } else {
    const extended = await typed(tx)
      .updateTable('link')
      .set({
        expires_at: sql`greatest(expires_at, now()) + make_interval(days => ${change.days})`,
        updated_at: sql`now()`,
      })
      .where('id', '=', link.id)
      .returning('expires_at')
      .executeTakeFirstOrThrow();
    await writeAudit(tx, {
      ...actor,
      action: 'link.extended',
      linkId: link.id,
      details: { days: change.days, from: link.expires_at, to: extended.expires_at, ...reason },
    });
  }
}
