import { InvalidArgumentError } from 'commander';
import { consoleRoutes as routes } from '@paylink/shared';
import { call } from '../api-client.js';
import { table } from '../format.js';
import type { Cli } from './kit.js';

const isoTime = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) || Number.isNaN(Date.parse(v)))
    throw new InvalidArgumentError('--now must be an ISO time with its zone, like 2026-12-01T15:00:00Z.');
  return new Date(v).toISOString();
};

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
}
