import type { ChargeOutcome, PlanView } from '@paylink/shared';
import type { Config } from '../../config.js';
import { retryingTransaction, type Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { lockInstallment, lockPlan, notActive, OPEN_STATUSES } from './plan-action-support.js';
import { chargeInstallmentNow, OUTCOME_UNKNOWN } from './run-plan-scheduler.js';
import { showPlan } from './show-plan.js';

export interface ChargeInstallmentOptions {
  db: Db;
  gateway: CardGateway;
  config: Config;
  actor: Actor;
  linkId: string;
  n: number;
  reason?: string;
  log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  now?: Date;
}

/**
 * Charges one open instalment now, at the practice's request (decision 0210: the patient asked to pay today). The
 * charge itself is the scheduler's: its lease, its merchant transaction id stored before the call, its reconciliation
 * of an unknown answer, its receipt and webhooks. A decline is an answer (outcome `declined` or `failed`), not an
 * error.
 */
export async function chargeInstallment(
  opts: ChargeInstallmentOptions,
): Promise<{ outcome: ChargeOutcome; plan: PlanView }> {
  const row = await retryingTransaction(opts.db, async (tx) => {
    const plan = await lockPlan(tx, opts.linkId);
    if (plan.status !== 'active') throw notActive(plan, 'charged');
    const row = await lockInstallment(tx, plan, opts.n);
    if (!(OPEN_STATUSES as readonly string[]).includes(row.status)) {
      throw new AppError(
        'installment_not_open',
        `Installment ${row.n} is ${row.status}: only an open one can be charged.`,
      );
    }
    // Recorded before the sale: the timeline says who asked for it whatever happens next.
    await writeAudit(tx, {
      ...opts.actor,
      action: 'installment.charge_requested',
      linkId: opts.linkId,
      details: { n: row.n, amountCents: row.amountCents, ...(opts.reason ? { reason: opts.reason } : {}) },
    });
    return row;
  });
  let outcome: ChargeOutcome | null;
  try {
    outcome = await chargeInstallmentNow({ ...opts, now: opts.now ?? new Date(), installmentId: row.id });
  } catch (err) {
    // Mostly a claim taken over (a cancel, pause or new date came first, and that action won); otherwise an
    // unknown outcome stays marked and the next pass asks the gateway before anything else.
    opts.log.error({ err, linkId: opts.linkId, n: row.n }, 'charge now did not finish');
    throw new AppError(
      'charge_in_progress',
      `The charge of installment ${row.n} did not finish: the plan was changed meanwhile (cancelled, paused or ` +
        'moved), or the scheduler will confirm it with the gateway on its next pass. Look at the plan again.',
    );
  }
  if (outcome === null) {
    if (row.lastFailure === OUTCOME_UNKNOWN) {
      // Held (decision 0237): the gateway may still be charging the card for the last try; a second sale now could be
      // a second charge.
      throw new AppError(
        'charge_in_progress',
        `Installment ${row.n} was already sent to the card gateway and its answer is not known yet. Do not charge it ` +
          'again: Paylink asks the gateway on every pass (every few minutes) and records the answer. Look at the plan ' +
          'again then.',
      );
    }
    throw new AppError(
      'charge_in_progress',
      `Installment ${row.n} is being worked on by the scheduler right now. Look at the plan again in a few minutes.`,
    );
  }
  return { outcome, plan: (await showPlan({ q: opts.db, linkId: opts.linkId }))! };
}
