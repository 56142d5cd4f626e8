import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { deliveryAddress, type Lookup, type WebhookPolicy, webhookPolicy } from './destination.js';
import { typed } from '../../db/typed.js';
import { signWebhook } from './signature.js';
import { startPoller, type Poller } from '../../lib/poller.js';

/** A claimed delivery is hidden from other workers this long (a crash frees it for a retry after that). */
const LEASE_SECONDS = 120;
const TIMEOUT_MS = 10_000;

export interface WebhookWorkerOptions {
  /** First retry delay; doubles each attempt (default 30 s: 30 s, 1 min, 2 min, … capped at 6 h, for 3 days). */
  baseDelayMs?: number;
  pollMs?: number;
  limit?: number;
  /** Name resolution (tests give their own; default: the system's). */
  lookup?: Lookup;
}

/** Delay after the nth failed attempt. */
function webhookBackoffMs(attempt: number, baseDelayMs = 30_000): number {
  return Math.min(baseDelayMs * 2 ** Math.max(0, attempt - 1), 6 * 3600_000);
}

type Ctx = Pick<AppContext, 'db' | 'log' | 'config'>;

/**
 * POST with node:http(s), connected to the checked address only (destination.ts): no redirect is followed (a 3xx is
 * a failed attempt), and the TLS certificate is still checked against the URL's host name.
 */
async function postWebhook(
  url: string,
  o: { headers: Record<string, string>; body: string; policy: WebhookPolicy; lookup?: Lookup },
): Promise<number> {
  const target = await deliveryAddress(url, o.policy, o.lookup);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
  const u = new URL(url);
  const send = u.protocol === 'https:' ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) },
        lookup: pinned,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/**
 * One pass over due deliveries: claim (for update skip locked + lease), POST the event's stored body signed with the
 * endpoint's current secret, record the attempt (status code, time, duration), then delivered (2xx), retry later with
 * exponential backoff, or failed once 3 days have passed.
 */
export async function deliverDueWebhooks(
  ctx: Ctx,
  opts: WebhookWorkerOptions = {},
): Promise<{ delivered: number; retrying: number; failed: number }> {
  const db = typed(ctx.db);
  const claimed = await db
    .with('due', (qb) =>
      qb
        .selectFrom('webhook_delivery as d')
        .select('d.id')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('d.next_attempt_at')
        .limit(opts.limit ?? 20)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable('webhook_delivery as d')
    .from(['due', 'webhook_endpoint as e', 'webhook_event as ev'])
    .set((eb) => ({
      attempts: eb('d.attempts', '+', 1),
      next_attempt_at: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
    }))
    .whereRef('d.id', '=', 'due.id')
    .whereRef('e.id', '=', 'd.endpoint_id')
    .whereRef('ev.id', '=', 'd.event_id')
    .returning(['d.id', 'd.attempts', 'd.give_up_at', 'e.url', 'e.secret', 'ev.body', 'ev.id as event_id', 'ev.type'])
    .execute();
  const report = { delivered: 0, retrying: 0, failed: 0 };
  const policy = webhookPolicy(ctx.config);
  for (const d of claimed) {
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await postWebhook(d.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Paylink-Webhooks/1',
          'paylink-signature': signWebhook(d.secret, d.body),
          'paylink-event-id': d.event_id,
          'paylink-event-type': d.type,
          'paylink-delivery-id': d.id,
        },
        body: d.body,
        policy,
        lookup: opts.lookup,
      });
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      error = `${(err as Error).name}: ${(err as Error).message}`.slice(0, 500);
    }
    const ms = Date.now() - started;
    await db
      .insertInto('webhook_attempt')
      .values({ delivery_id: d.id, status_code: status, error, duration_ms: ms })
      .execute();
    if (!error) {
      await db
        .updateTable('webhook_delivery')
        .set({ status: 'delivered', delivered_at: sql`now()`, last_status_code: status, last_error: null })
        .where('id', '=', d.id)
        .execute();
      report.delivered++;
      continue;
    }
    const next = new Date(Date.now() + webhookBackoffMs(d.attempts, opts.baseDelayMs));
    if (next > new Date(d.give_up_at)) {
      await db
        .updateTable('webhook_delivery')
        .set({ status: 'failed', last_status_code: status, last_error: error })
        .where('id', '=', d.id)
        .execute();
      report.failed++;
      ctx.log.error({ deliveryId: d.id, url: d.url, err: error }, 'webhook delivery failed for good');
    } else {
      await db
        .updateTable('webhook_delivery')
        .set({ next_attempt_at: next, last_status_code: status, last_error: error })
        .where('id', '=', d.id)
        .execute();
      report.retrying++;
      ctx.log.warn({ deliveryId: d.id, url: d.url, err: error }, 'webhook delivery failed; will retry');
    }
  }
  return report;
}

/** Polls for due deliveries until stopped; started once per server process (main.ts). */
export function startWebhookWorker(ctx: Ctx, opts: WebhookWorkerOptions = {}): Poller {
  return startPoller({
    name: 'webhook worker',
    intervalMs: opts.pollMs ?? 1000,
    log: ctx.log,
    pass: async ({ stopping }) => {
      for (;;) {
        const r = await deliverDueWebhooks(ctx, opts);
        if (stopping() || r.delivered + r.retrying + r.failed < (opts.limit ?? 20)) break;
      }
    },
  });
}
