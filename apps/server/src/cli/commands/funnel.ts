import { consoleRoutes as routes } from '@paylink/shared';
import { call } from '../api-client.js';
import { table } from '../format.js';
import { isoDate, positiveInt, reportQuery, type Cli } from './kit.js';

const duration = (s: number | null) =>
  s === null
    ? '-'
    : s < 3600
      ? `${Math.round(s / 60)} min`
      : s < 172800
        ? `${(s / 3600).toFixed(1)} h`
        : `${(s / 86400).toFixed(1)} d`;

const money = (m: { count: number; amount: number }) =>
  `$${m.amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} (${m.count})`;

/** `paylink funnel`: where patients stop between the link and the payment. */
export function registerFunnel({ program, env, print }: Cli): void {
  program
    .command('funnel')
    .description('links created → sent → opened → signed in → each step → paid, with conversion and stalled links')
    .option('--from <date>', 'first day of link creation, YYYY-MM-DD (default: 29 days before --to)', isoDate('--from'))
    .option('--to <date>', 'last day, YYYY-MM-DD (default: today)', isoDate('--to'))
    .option('--coordinator <id>', "a coordinator's staff id, or me")
    .option(
      '--stalled-after <hours>',
      'no patient activity for this long = stalled (default 48)',
      positiveInt('--stalled-after'),
    )
    .action(async (o) => {
      const r = await call(env, routes.funnel, {
        query: { ...reportQuery(o), stalledAfterHours: o.stalledAfter },
      });
      print(r, () =>
        [
          `Links created ${r.from} to ${r.to} (${r.timeZone})`,
          table([
            ['STAGE', 'LINKS', 'CONVERSION', 'MEDIAN TIME'],
            ...r.stages.map((s) => [
              s.key,
              String(s.count),
              s.conversion === null ? '-' : `${(s.conversion * 100).toFixed(1)}%`,
              duration(s.medianSeconds),
            ]),
          ]),
          r.stalled.length
            ? `Stalled: ${r.stalled.map((s) => `${s.count} at ${s.stage}`).join(', ')}`
            : 'No stalled links.',
          // The plans' money of these links (issue 28): only when some have a plan.
          ...(r.planMoney.plans
            ? [
                `Links with a payment plan: ${r.planMoney.plans}; collected ${money(r.planMoney.collected)}, ` +
                  `scheduled ${money(r.planMoney.scheduled)}, failed ${money(r.planMoney.failed)}`,
              ]
            : []),
        ].join('\n'),
      );
    });
}
