import {
  DocumentStepRoutes,
  LinkMessages,
  StepRoutes,
  StepStatus,
  type StepRoute,
  type UpdateStepResult,
} from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, writeAudits, type Actor } from '../../lib/audit.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { StepDocuments } from '../../context.js';
import { revokeLinkSessions } from '../../http/session-tokens.js';
import { findStep, linkState, listSteps, type LinkRow, type StepRow } from './link-queries.js';

/**
 * The one owner of a link's lifecycle (issue 10 item 4, docs/decisions/0105): every write of a link's status or
 * expiry and of its steps (creation, status, document URL) goes through this file, with its audit rows, in the
 * caller's transaction (the caller holds the link's row lock). The rules live here once:
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

/**
 * A step becomes in progress (2) or completed (4), in order (PUT /api/linksteps). Refused with 409 on a link that is
 * not active, out of order, for the payment step (only an approved payment completes it), for an unsigned document,
 * and for reopening a completed step; 403 for another link's step.
 */
export async function moveStep(
  tx: Queryable,
  o: {
    actor: Actor;
    link: LockedLink;
    linkStepId: number;
    statusId: 2 | 4;
    documents: Pick<StepDocuments, 'isComplete'>;
  },
): Promise<UpdateStepResult> {
  const { link, statusId } = o;
  const state = linkState(link);
  if (state !== 'active') throw new AppError('link_not_active', NOT_ACTIVE[state]!);
  // The link's steps, read once (the link is locked): the step is among them, or it is unknown or another link's.
  const steps = await listSteps(tx, link.id);
  const index = steps.findIndex((s) => s.id === o.linkStepId);
  const step = steps[index];
  if (!step) {
    if (!(await findStep(tx, o.linkStepId))) throw notFound('No such step.');
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
    !(await o.documents.isComplete(tx, { linkId: link.id, linkStepId: step.id, routePath: step.route_path }))
  ) {
    throw new AppError('document_not_signed', 'Sign the document before continuing.');
  }

  if (step.status_id !== statusId) {
    await typed(tx)
      .updateTable('link_step')
      .set({
        status_id: statusId,
        updated_at: sql`now()`,
        completed_at: statusId === StepStatus.Completed ? sql`now()` : null,
      })
      .where('id', '=', step.id)
      .execute();
  }
  await writeAudit(tx, {
    ...o.actor,
    action: 'step.updated',
    linkId: link.id,
    details: { linkStepId: step.id, routePath: step.route_path, from: step.status_id, to: statusId },
  });
  return result;
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
  const steps = await typed(tx)
    .updateTable('link_step')
    .set({ status_id: StepStatus.Completed, completed_at: sql`coalesce(completed_at, now())`, updated_at: sql`now()` })
    .where('link_id', '=', link.id)
    .where('route_path', '=', sql<string>`any(${[StepRoutes.payment, StepRoutes.confirmation]}::text[])`)
    .returning(['id', 'route_path'])
    .execute();
  await typed(tx)
    .updateTable('link')
    .set({ status: 'completed', completed_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', link.id)
    .execute();
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
