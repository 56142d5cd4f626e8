import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { typed } from '../../db/typed.js';
import { ProviderSendError } from '../../providers/sms/types.js';
import { loadPracticeInfo } from '../../messages/index.js';
import { startPoller, type Poller } from '../../lib/poller.js';

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
  const db = typed(ctx.db);
  const claimed = await db
    .updateTable('outbox_message')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: sql`now() + make_interval(secs => ${LEASE_SECONDS})`,
    }))
    .where(
      'id',
      'in',
      db
        .selectFrom('outbox_message')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(opts.limit ?? 20)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'channel', 'to_address', 'subject', 'body_text', 'body_html', 'headers', 'attempts'])
    .execute();
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
  if (claimed.length === 0) return report;
  const practice = await loadPracticeInfo(ctx.db, {
    name: ctx.config.PRACTICE_NAME,
    senderName: ctx.config.senderName,
  });

  for (const row of claimed) {
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
              // jsonb: enqueueMessage only ever stores a string-to-string map here.
              ...(row.headers ? { headers: row.headers as Record<string, string> } : {}),
            });
      const delivery = result.status ?? (row.channel === 'sms' ? 'queued' : 'accepted');
      await db
        .updateTable('outbox_message')
        .set({
          status: 'sent',
          sent_at: sql`now()`,
          provider: provider.name,
          provider_id: result.providerId,
          last_error: null,
          delivery_status: delivery,
          delivery_error: result.errorCode ?? null,
          delivery_updated_at: sql`now()`,
        })
        .where('id', '=', row.id)
        .execute();
      if (provider.name !== 'sandbox') await redactCredential(ctx, row.id);
      report.sent++;
    } catch (err) {
      const permanent = err instanceof ProviderSendError && err.permanent;
      const message = (err as Error).message.slice(0, 1000);
      if (permanent || row.attempts >= ctx.config.OUTBOX_MAX_ATTEMPTS) {
        await db
          .updateTable('outbox_message')
          .set({
            status: 'failed',
            last_error: message,
            provider: provider.name,
            delivery_status: row.channel === 'sms' ? 'failed' : 'refused',
            delivery_error: message,
            delivery_updated_at: sql`now()`,
          })
          .where('id', '=', row.id)
          .execute();
        if (provider.name !== 'sandbox') await redactCredential(ctx, row.id);
        report.failed++;
        ctx.log.error({ outboxId: row.id, channel: row.channel, err: message }, 'outbox message failed for good');
      } else {
        await db
          .updateTable('outbox_message')
          .set({
            next_attempt_at: sql`now() + make_interval(secs => ${backoffSeconds(row.attempts)})`,
            last_error: message,
            provider: provider.name,
          })
          .where('id', '=', row.id)
          .execute();
        report.retrying++;
        ctx.log.warn({ outboxId: row.id, channel: row.channel, err: message }, 'outbox delivery failed; will retry');
      }
    }
  }
  return report;
}

async function redactCredential(ctx: WorkerContext, id: string): Promise<void> {
  await typed(ctx.db)
    .updateTable('outbox_message')
    .set({ body_text: REDACTED, body_html: null })
    .where('id', '=', id)
    .where('kind', '=', sql<string>`any(${CREDENTIAL_KINDS}::text[])`)
    .execute();
}

/** Polls the outbox until stopped. Started once per server process (main.ts). */
export function startOutboxWorker(ctx: WorkerContext): Poller {
  return startPoller({
    name: 'outbox worker',
    intervalMs: ctx.config.OUTBOX_POLL_INTERVAL_MS,
    log: ctx.log,
    // Drain: keep going while full batches come back.
    pass: async ({ stopping }) => {
      for (;;) {
        const r = await deliverDueMessages(ctx);
        if (stopping() || r.sent + r.retrying + r.failed < 20) break;
      }
    },
  });
}
