import type { AppContext } from '../../context.js';
import { runDueReminders } from './run-reminders.js';
import { notifyStaff } from './staff-notifications.js';
import { startPoller, type Poller } from '../../lib/poller.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

/** Each server process polls for due reminders and staff notifications every REMINDER_POLL_INTERVAL. */
export function startMessagingWorker(ctx: Ctx): Poller {
  return startPoller({
    name: 'messaging worker',
    intervalMs: (ctx.config.REMINDER_POLL_INTERVAL ?? 30) * 1000,
    log: ctx.log,
    pass: async () => {
      await runDueReminders(ctx);
      await notifyStaff(ctx);
    },
  });
}
