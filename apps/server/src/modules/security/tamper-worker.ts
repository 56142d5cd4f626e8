import type { AppContext } from '../../context.js';
import { runScheduledTamperCheck } from './run-tamper-check.js';
import { startPoller, type Poller } from '../../lib/poller.js';

/** Polls once a minute; the schedule row in the database decides when a check is due (one process runs it). */
export function startTamperWorker(
  ctx: Pick<AppContext, 'db' | 'config' | 'log'>,
  webDist: string,
  pollMs = 60_000,
): Poller {
  return startPoller({
    name: 'tamper check',
    intervalMs: pollMs,
    log: ctx.log,
    pass: () => runScheduledTamperCheck(ctx, webDist),
    delayFirst: true,
    unref: true,
  });
}
