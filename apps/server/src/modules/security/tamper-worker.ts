import type { AppContext } from '../../context.js';
import { runScheduledTamperCheck } from './run-tamper-check.js';

/** Polls once a minute; the schedule row in the database decides when a check is due (one process runs it). */
export function startTamperWorker(
  ctx: Pick<AppContext, 'db' | 'config' | 'log'>,
  webDist: string,
  pollMs = 60_000,
): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    try {
      await runScheduledTamperCheck(ctx, webDist);
    } catch (err) {
      ctx.log.error({ err }, 'tamper check pass failed');
    }
    if (!stopped) timer = setTimeout(run, pollMs).unref();
  };
  const run = () => {
    current = tick();
  };
  timer = setTimeout(run, pollMs).unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
