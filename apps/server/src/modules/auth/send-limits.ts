import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { tooManyRequests } from './auth-errors.js';

export type SendLimit = { ok: true } | { ok: false; reason: 'cooldown' | 'hourly-cap'; retryAfterSeconds: number };

/**
 * The resend cooldown and the hourly cap for one link, counted in the database. Call it inside the transaction that
 * holds the link row lock (requireUsableLink forUpdate), so concurrent requests on any process count as one queue.
 */
export async function checkSendLimit(
  tx: Queryable,
  opts: { linkId: string; channel: 'sms' | 'email'; config: Config },
): Promise<SendLimit> {
  const r = await tx.query<{ sends: number; cooldown_left: number | null; cap_left: number | null }>(
    `select count(*)::int as sends,
       ceil(extract(epoch from (max(created_at) + make_interval(secs => $3) - now())))::int as cooldown_left,
       ceil(extract(epoch from (min(created_at) + interval '1 hour' - now())))::int as cap_left
     from auth_send where link_id = $1 and channel = $2 and created_at > now() - interval '1 hour'`,
    [opts.linkId, opts.channel, opts.config.OTP_RESEND_COOLDOWN_SECONDS],
  );
  const row = r.rows[0]!;
  if (row.sends >= opts.config.OTP_MAX_SENDS_PER_HOUR) {
    return { ok: false, reason: 'hourly-cap', retryAfterSeconds: Math.max(1, row.cap_left ?? 3600) };
  }
  if (row.cooldown_left !== null && row.cooldown_left > 0) {
    return { ok: false, reason: 'cooldown', retryAfterSeconds: row.cooldown_left };
  }
  return { ok: true };
}

export async function recordSend(tx: Queryable, linkId: string, channel: 'sms' | 'email'): Promise<void> {
  await tx.query('insert into auth_send (link_id, channel) values ($1, $2)', [linkId, channel]);
}

function limitMessage(l: Exclude<SendLimit, { ok: true }>, what: 'code' | 'link'): string {
  return l.reason === 'cooldown'
    ? `Please wait ${l.retryAfterSeconds} seconds before asking for another ${what}.`
    : `Too many ${what}s were requested for this link. Try again in ${Math.ceil(l.retryAfterSeconds / 60)} minutes.`;
}

/** Audits a refused send (outside the rolled-back transaction, so the refusal itself is on record) and throws 429. */
export async function refuseLimitedSend(
  q: Queryable,
  opts: {
    actor: AuditActor;
    action: string;
    linkId: string;
    limit: Exclude<SendLimit, { ok: true }>;
    what: 'code' | 'link';
  },
): Promise<never> {
  await auditAuth(q, opts.actor, `${opts.action}.limited`, opts.linkId, {
    reason: opts.limit.reason,
    retryAfterSeconds: opts.limit.retryAfterSeconds,
  });
  throw tooManyRequests(limitMessage(opts.limit, opts.what), opts.limit.retryAfterSeconds);
}
