import { InvalidArgumentError } from 'commander';
import { randomUUID } from 'node:crypto';
import { consoleRoutes as routes, isIsoDate, type PlanView } from '@paylink/shared';
import { call } from '../api-client.js';
import { table } from '../format.js';
import type { Cli } from './kit.js';

const isoTime = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) || Number.isNaN(Date.parse(v)))
    throw new InvalidArgumentError('--now must be an ISO time with its zone, like 2026-12-01T15:00:00Z.');
  return new Date(v).toISOString();
};

const installmentNumber = (v: string) => {
  if (!/^\d{1,2}$/.test(v) || Number(v) < 1)
    throw new InvalidArgumentError('<n> must be an installment number: 1, 2, …');
  return Number(v);
};
const isoDate = (v: string) => {
  if (!isIsoDate(v)) throw new InvalidArgumentError('<date> must be a date like 2027-01-15.');
  return v;
};
const dollars = (v: string) => {
  if (!/^\d+(\.\d{1,2})?$/.test(v)) throw new InvalidArgumentError('--amount must be dollars like 120 or 120.50.');
  return Number(v);
};

/** The plan after an action, as `links show` prints it: status, then one line per instalment. */
function planText(plan: PlanView): string {
  return [
    `Plan ${plan.status}: total $${plan.total.toFixed(2)}, balance $${plan.balance.toFixed(2)}`,
    table([
      ['N', 'DUE', 'AMOUNT', 'STATUS', 'REFUNDED'],
      ...plan.installments.map((i) => [
        String(i.n),
        i.dueOn,
        `$${i.amount.toFixed(2)}`,
        i.chargeInProgress ? `${i.status} (sent to the gateway, answer not known yet)` : i.status,
        i.refunded ? `$${i.refunded.toFixed(2)}` : '',
      ]),
    ]),
  ].join('\n');
}

/**
 * What a charge now did. A lost answer is never "not charged" (decision 0237): the sale may still go through, so the
 * sentence says so and that a second charge could charge the card twice. A press while it is held is refused 409
 * charge_in_progress by the server, whose sentence the CLI prints as its error.
 */
function chargeSentence(n: number, outcome: string, linkId: string): string {
  if (outcome !== 'unknown') return `Charge of installment ${n}: ${outcome}.`;
  return (
    `Charge of installment ${n}: no answer from the card gateway yet. The card may have been charged: do not charge ` +
    'it again. Paylink holds the installment (no new charge is sent meanwhile), asks the gateway on every scheduler ' +
    `pass (every few minutes) and records its answer; see it with \`paylink links show ${linkId}\`.`
  );
}

/** `paylink plans run --now`: one pass of the plan scheduler at a chosen time (sandbox mode only). */
export function registerPlans({ program, env, print }: Cli): void {
  const plans = program.command('plans').description('payment plans');
  plans
    .command('run')
    .description('run the plan scheduler once as if it were --now: notices and due charges (sandbox mode only)')
    .requiredOption('--now <time>', 'the clock for this pass, an ISO time like 2026-12-01T15:00:00Z', isoTime)
    .action(async (o: { now: string }) => {
      const r = await call(env, routes.runPlans, { body: { now: o.now } });
      print(r, () =>
        [
          `Plan scheduler at ${r.now}`,
          table([
            ['NOTIFIED', 'DEFERRED', 'PAID', 'DECLINED', 'FAILED', 'UNKNOWN', 'PLANS COMPLETED', 'CARDS EXPIRING'],
            [r.notified, r.deferred, r.paid, r.declined, r.failed, r.unknown, r.completedPlans, r.cardsExpiring].map(
              String,
            ),
          ]),
        ].join('\n'),
      );
    });

  // The practice's actions (decision 0210). Each prints the plan afterwards (`--json`: { plan }).
  for (const [name, route, what] of [
    ['pause', routes.pausePlan, 'pause a plan: no notice and no charge until it is resumed'],
    ['resume', routes.resumePlan, 'resume a paused plan (an installment whose date passed is told again first)'],
    ['cancel', routes.cancelPlan, 'cancel the rest of a plan; the patient is sent a confirmation at once'],
  ] as const) {
    plans
      .command(`${name} <linkId>`)
      .description(what)
      .option('--reason <text>', 'why (kept in the audit trail; not sent to the patient)')
      .action(async (id: string, o: { reason?: string }) => {
        const r = await call(env, route, { params: { id }, body: { reason: o.reason } });
        print(r, () => planText(r.plan));
      });
  }
  plans
    .command('reschedule')
    .description('move an open installment to a new date (at least 7 days away: the patient is told again)')
    .argument('<linkId>', 'the link')
    .argument('<n>', 'the installment number (1 for a single balance charge)', installmentNumber)
    .argument('<date>', 'the new date, YYYY-MM-DD in the practice time zone', isoDate)
    .option('--reason <text>', 'why (kept in the audit trail)')
    .action(async (id: string, n: number, date: string, o: { reason?: string }) => {
      const r = await call(env, routes.rescheduleInstallment, {
        params: { id, n },
        body: { dueOn: date, reason: o.reason },
      });
      print(r, () => planText(r.plan));
    });
  plans
    .command('charge')
    .description('charge an open installment now, at the patient’s request (billing and admin only)')
    .argument('<linkId>', 'the link')
    .argument('<n>', 'the installment number', installmentNumber)
    .option('--reason <text>', 'why (kept in the audit trail)')
    .option('--idempotency-key <key>', 'reuse a key to retry safely: the same key never charges twice')
    .action(async (id: string, n: number, o: { reason?: string; idempotencyKey?: string }) => {
      const r = await call(
        env,
        routes.chargeInstallment,
        { params: { id, n }, body: { reason: o.reason } },
        { headers: { 'idempotency-key': o.idempotencyKey ?? `cli-${randomUUID()}` } },
      );
      print(r, () => `${chargeSentence(n, r.outcome, id)}\n${planText(r.plan)}`);
    });
  plans
    .command('refund')
    .description('refund a paid installment (void before settlement, return after); billing and admin only')
    .argument('<linkId>', 'the link')
    .argument('<n>', 'the installment number', installmentNumber)
    .option('--amount <dollars>', 'how much to give back (default: everything not yet refunded)', dollars)
    .option('--reason <text>', 'why (kept in the audit trail; not sent to the patient)', 'Refund of a plan installment')
    .option('--idempotency-key <key>', 'reuse a key to retry safely: the same key never refunds twice')
    .action(async (id: string, n: number, o: { amount?: number; reason: string; idempotencyKey?: string }) => {
      const r = await call(
        env,
        routes.refundInstallment,
        { params: { id, n }, body: { amount: o.amount, reason: o.reason } },
        { headers: { 'idempotency-key': o.idempotencyKey ?? `cli-${randomUUID()}` } },
      );
      print(r, () => planText(r.plan));
    });
}
