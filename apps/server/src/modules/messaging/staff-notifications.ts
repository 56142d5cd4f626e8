import type { AppContext } from '../../context.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

/** Staff e-mails when a link is paid or a payment needs attention (filled in below). */
export async function notifyStaff(_ctx: Ctx): Promise<{ sent: number }> {
  return { sent: 0 };
}
