import type { AppContext } from '../../context.js';
import { startPoller, type Poller } from '../../lib/poller.js';
import { runPlanScheduler } from './run-plan-scheduler.js';

/** Each server process runs the plan scheduler every PLAN_SCHEDULER_INTERVAL on the real clock; null when off. */
export function startPlanWorker(ctx: Pick<AppContext, 'db' | 'config' | 'log' | 'providers'>): Poller | null {
  const seconds = ctx.config.PLAN_SCHEDULER_INTERVAL;
  if (seconds === null) return null;
  return startPoller({
    name: 'plan scheduler',
    intervalMs: seconds * 1000,
    log: ctx.log,
    // The first pass waits one interval: a restart loop does not hammer the gateway.
    delayFirst: true,
    pass: ({ stopping }) =>
      runPlanScheduler({
        stopping,
        db: ctx.db,
        gateway: ctx.providers.gateway,
        config: ctx.config,
        now: new Date(),
        log: ctx.log,
      }),
  });
}
