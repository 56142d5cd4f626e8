import type { AppContext } from '../../context.js';
import { runDueReminders } from './run-reminders.js';
import { notifyStaff } from './staff-notifications.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

/** Each server process polls for due reminders and staff notifications every REMINDER_POLL_INTERVAL. */
export function startMessagingWorker(ctx: Ctx): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    try {
      await runDueReminders(ctx);
      await notifyStaff(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'messaging worker pass failed');
    }
    if (!stopped) timer = setTimeout(run, (ctx.config.REMINDER_POLL_INTERVAL ?? 30) * 1000);
  };
  const run = () => {
    current = tick();
  };
  run();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
