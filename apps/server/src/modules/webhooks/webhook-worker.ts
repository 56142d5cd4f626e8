import type { AppContext } from '../../context.js';
import { signWebhook } from './signature.js';

/** A claimed delivery is hidden from other workers this long (a crash frees it for a retry after that). */
const LEASE_SECONDS = 120;
const TIMEOUT_MS = 10_000;

export interface WebhookWorkerOptions {
  /** First retry delay; doubles each attempt (default 30 s: 30 s, 1 min, 2 min, … capped at 6 h, for 3 days). */
  baseDelayMs?: number;
  pollMs?: number;
  limit?: number;
}

/** Delay after the nth failed attempt. */
export function webhookBackoffMs(attempt: number, baseDelayMs = 30_000): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempt - 1), 6 * 3600_000);
}

interface Claimed {
  id: string;
  attempts: number;
  give_up_at: Date;
  url: string;
  secret: string;
  body: string;
  event_id: string;
  type: string;
}

type Ctx = Pick<AppContext, 'db' | 'log'>;

/**
 * One pass over due deliveries: claim (for update skip locked + lease), POST the event's stored body signed with the
 * endpoint's current secret, record the attempt (status code, time, duration), then delivered (2xx), retry later with
 * exponential backoff, or failed once 3 days have passed.
 */
export async function deliverDueWebhooks(
  ctx: Ctx,
  opts: WebhookWorkerOptions = {},
): Promise<{ delivered: number; retrying: number; failed: number }> {
  const claimed = await ctx.db.query<Claimed>(
    `with due as (
       select d.id from webhook_delivery d where d.status = 'pending' and d.next_attempt_at <= now()
       order by d.next_attempt_at limit $1 for update skip locked)
     update webhook_delivery d set attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
     from due, webhook_endpoint e, webhook_event ev
     where d.id = due.id and e.id = d.endpoint_id and ev.id = d.event_id
     returning d.id, d.attempts, d.give_up_at, e.url, e.secret, ev.body, ev.id as event_id, ev.type`,
    [opts.limit ?? 20, LEASE_SECONDS],
  );
  const report = { delivered: 0, retrying: 0, failed: 0 };
  for (const d of claimed.rows) {
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const r = await fetch(d.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Paylink-Webhooks/1',
          'paylink-signature': signWebhook(d.secret, d.body),
          'paylink-event-id': d.event_id,
          'paylink-event-type': d.type,
          'paylink-delivery-id': d.id,
        },
        body: d.body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = r.status;
      await r.body?.cancel().catch(() => undefined);
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      error = `${(err as Error).name}: ${(err as Error).message}`.slice(0, 500);
    }
    const ms = Date.now() - started;
    await ctx.db.query(
      'insert into webhook_attempt (delivery_id, status_code, error, duration_ms) values ($1, $2, $3, $4)',
      [d.id, status, error, ms],
    );
    if (!error) {
      await ctx.db.query(
        `update webhook_delivery set status = 'delivered', delivered_at = now(), last_status_code = $2, last_error = null
         where id = $1`,
        [d.id, status],
      );
      report.delivered++;
      continue;
    }
    const next = new Date(Date.now() + webhookBackoffMs(d.attempts, opts.baseDelayMs));
    if (next > new Date(d.give_up_at)) {
      await ctx.db.query(
        `update webhook_delivery set status = 'failed', last_status_code = $2, last_error = $3 where id = $1`,
        [d.id, status, error],
      );
      report.failed++;
      ctx.log.error({ deliveryId: d.id, url: d.url, err: error }, 'webhook delivery failed for good');
    } else {
      await ctx.db.query(
        `update webhook_delivery set next_attempt_at = $2, last_status_code = $3, last_error = $4 where id = $1`,
        [d.id, next, status, error],
      );
      report.retrying++;
      ctx.log.warn({ deliveryId: d.id, url: d.url, err: error }, 'webhook delivery failed; will retry');
    }
  }
  return report;
}

/** Polls for due deliveries until stopped; started once per server process (main.ts). */
export function startWebhookWorker(ctx: Ctx, opts: WebhookWorkerOptions = {}): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    try {
      for (;;) {
        const r = await deliverDueWebhooks(ctx, opts);
        if (stopped || r.delivered + r.retrying + r.failed < (opts.limit ?? 20)) break;
      }
    } catch (err) {
      ctx.log.error({ err }, 'webhook worker pass failed');
    }
    if (!stopped) timer = setTimeout(run, opts.pollMs ?? 1000);
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
