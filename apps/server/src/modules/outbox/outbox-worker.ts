import type { AppContext } from '../../context.js';
import { ProviderSendError } from '../../providers/sms/types.js';
import { loadPracticeInfo } from './practice-info.js';

/** How long a claimed message is hidden from other workers while this one sends it (a crash frees it after that). */
const LEASE_SECONDS = 300;

/**
 * Messages that carry a live credential (a sign-in code or link). Once a real provider has them (or gave up), the
 * stored copy is blanked, so the database never holds a usable code in clear (decision 0013). Sandbox rows are kept:
 * the sandbox outbox is how people read them.
 */
const CREDENTIAL_KINDS = ['signin-code', 'signin-link'];
const REDACTED = '[removed after delivery: it contained a sign-in credential]';

/** Exponential backoff after the nth failed attempt: 30 s, 1 min, 2 min, ... capped at 1 hour. */
export function backoffSeconds(attempt: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempt - 1), 3600);
}

interface ClaimedRow {
  id: string;
  channel: 'sms' | 'email';
  to_address: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  headers: Record<string, string> | null;
  attempts: number;
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

type WorkerContext = Pick<AppContext, 'db' | 'log' | 'providers' | 'config'>;

/**
 * One pass: claims due messages (select ... for update skip locked, so several processes never send the same row),
 * sends each through its provider, and records the outcome: sent, retry later with backoff, or failed for good.
 */
export async function deliverDueMessages(ctx: WorkerContext, opts: { limit?: number } = {}): Promise<DeliveryReport> {
  const claimed = await ctx.db.query<ClaimedRow>(
    `update outbox_message set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
     where id in (
       select id from outbox_message where status = 'pending' and next_attempt_at <= now()
       order by next_attempt_at limit $1 for update skip locked)
     returning id, channel, to_address, subject, body_text, body_html, headers, attempts`,
    [opts.limit ?? 20, LEASE_SECONDS],
  );
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  if (claimed.rowCount === 0) return report;
  const practice = await loadPracticeInfo(ctx.db, {
    name: ctx.config.PRACTICE_NAME,
    senderName: ctx.config.senderName,
  });

  for (const row of claimed.rows) {
    const provider = row.channel === 'sms' ? ctx.providers.sms : ctx.providers.email;
    try {
      const result =
        row.channel === 'sms'
          ? await ctx.providers.sms.send({ to: row.to_address, body: row.body_text })
          : await ctx.providers.email.send({
              to: row.to_address,
              fromName: practice.senderName,
              subject: row.subject ?? '',
              text: row.body_text,
              html: row.body_html ?? undefined,
              ...(row.headers ? { headers: row.headers } : {}),
            });
      const delivery = result.status ?? (row.channel === 'sms' ? 'queued' : 'accepted');
      await ctx.db.query(
        `update outbox_message set status = 'sent', sent_at = now(), provider = $2, provider_id = $3, last_error = null,
           delivery_status = $4, delivery_error = $5, delivery_updated_at = now()
         where id = $1`,
        [row.id, provider.name, result.providerId, delivery, result.errorCode ?? null],
      );
      if (provider.name !== 'sandbox') await redactCredential(ctx, row.id);
      report.sent++;
    } catch (err) {
      const permanent = err instanceof ProviderSendError && err.permanent;
      const message = (err as Error).message.slice(0, 1000);
      if (permanent || row.attempts >= ctx.config.OUTBOX_MAX_ATTEMPTS) {
        await ctx.db.query(
          `update outbox_message set status = 'failed', last_error = $2, provider = $3,
             delivery_status = $4, delivery_error = $2, delivery_updated_at = now() where id = $1`,
          [row.id, message, provider.name, row.channel === 'sms' ? 'failed' : 'refused'],
        );
        if (provider.name !== 'sandbox') await redactCredential(ctx, row.id);
        report.failed++;
        ctx.log.error({ outboxId: row.id, channel: row.channel, err: message }, 'outbox message failed for good');
      } else {
        await ctx.db.query(
          `update outbox_message set next_attempt_at = now() + make_interval(secs => $2), last_error = $3, provider = $4
           where id = $1`,
          [row.id, backoffSeconds(row.attempts), message, provider.name],
        );
        report.retrying++;
        ctx.log.warn({ outboxId: row.id, channel: row.channel, err: message }, 'outbox delivery failed; will retry');
      }
    }
  }
  return report;
}

async function redactCredential(ctx: WorkerContext, id: string): Promise<void> {
  await ctx.db.query(
    `update outbox_message set body_text = $2, body_html = null where id = $1 and kind = any($3::text[])`,
    [id, REDACTED, CREDENTIAL_KINDS],
  );
}

/** Polls the outbox until stopped. Started once per server process (main.ts). */
export function startOutboxWorker(ctx: WorkerContext): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    try {
      // Drain: keep going while full batches come back.
      for (;;) {
        const r = await deliverDueMessages(ctx);
        if (stopped || r.sent + r.retrying + r.failed < 20) break;
      }
    } catch (err) {
      ctx.log.error({ err }, 'outbox worker pass failed');
    }
    if (!stopped) timer = setTimeout(run, ctx.config.OUTBOX_POLL_INTERVAL_MS);
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
