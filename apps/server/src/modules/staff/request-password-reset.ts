import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { newToken } from '../../lib/ids.js';
import { enqueueMessage, loadPracticeInfo } from '../../messages/index.js';
import { passwordResetLinkEmail } from './password-emails.js';
import { findStaffByEmail } from './staff-queries.js';

/** A reset link works once, for this long. */
export const RESET_LINK_MINUTES = 30;
/**
 * Limits of "forgot password" (docs/decisions/0218), over the last hour, on top of the per-minute, per-IP layer every
 * staff credential call has (http/rate-limits.ts): at most 3 e-mails per account (more requests are answered the same
 * and send nothing, so the answer never tells whether the address is an account), and 10 requests per IP address,
 * known addresses or not (then 429 too_many_attempts).
 */
export const RESET_LIMITS = { perAccount: 3, perIp: 10, windowMinutes: 60 } as const;
const LOCK_NAMESPACE = 7243192;

export const hashResetToken = (token: string) => createHash('sha256').update(`reset\0${token}`).digest('hex');

type Outcome = { kind: 'accepted' } | { kind: 'ip_limited'; retryAfterSeconds: number };

/**
 * "Forgot password": the same answer whether or not the address belongs to a staff account. An active account gets
 * an e-mail (through the outbox) with a single-use link to the console's reset page, valid 30 minutes; only the
 * token's SHA-256 is stored. Every request is kept (it counts towards the limits) and audited.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  opts: { email: string; ip: string; actor: Actor },
): Promise<{ status: 'accepted' }> {
  const email = opts.email.trim().toLowerCase();
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    // Concurrent requests for one address or from one IP are counted one after the other.
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `email:${email}`]);
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `ip:${opts.ip}`]);
    const counts = await tx.query<{ from_ip: number; sent: number; ip_retry: number | null }>(
      `select count(*) filter (where ip = $2)::int as from_ip,
         count(*) filter (where email = $1 and token_hash is not null)::int as sent,
         ceil(extract(epoch from (min(requested_at) filter (where ip = $2) + make_interval(mins => $3) - now())))::int
           as ip_retry
       from staff_password_reset
       where requested_at > now() - make_interval(mins => $3) and (email = $1 or ip = $2)`,
      [email, opts.ip, RESET_LIMITS.windowMinutes],
    );
    const c = counts.rows[0]!;
    if (c.from_ip >= RESET_LIMITS.perIp)
      return { kind: 'ip_limited', retryAfterSeconds: Math.max(1, c.ip_retry ?? 60) };
    const user = await findStaffByEmail(tx, email);
    const refused = !user
      ? 'unknown_address'
      : user.disabled_at
        ? 'deactivated'
        : c.sent >= RESET_LIMITS.perAccount
          ? 'account_limit'
          : null;
    const token = refused ? null : `plr_${newToken()}`;
    await tx.query(
      `insert into staff_password_reset (email, ip, staff_user_id, token_hash, expires_at)
       values ($1, $2, $3, $4, case when $4::text is null then null else now() + make_interval(mins => $5) end)`,
      [email, opts.ip, user?.id ?? null, token ? hashResetToken(token) : null, RESET_LINK_MINUTES],
    );
    if (token) {
      const practice = await loadPracticeInfo(tx, { name: ctx.config.PRACTICE_NAME });
      const url = `${ctx.config.publicUrl}/console/reset-password#token=${token}`;
      const mail = passwordResetLinkEmail({ practice, email, url, minutes: RESET_LINK_MINUTES });
      await enqueueMessage(tx, { channel: 'email', to: email, ...mail, kind: 'staff-password-reset' });
    }
    await writeAudit(tx, {
      ...opts.actor,
      action: 'staff.password_reset_requested',
      details: { email, sent: !refused, ...(refused ? { refused } : {}) },
    });
    return { kind: 'accepted' };
  });
  if (outcome.kind === 'ip_limited') {
    await writeAudit(ctx.db, {
      ...opts.actor,
      action: 'staff.password_reset_requested',
      details: { email, sent: false, refused: 'ip_limit' },
    });
    throw new AppError(
      'too_many_attempts',
      `Too many password reset requests from your address. Wait ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes and try again.`,
      { retryAfterSeconds: outcome.retryAfterSeconds },
    );
  }
  return { status: 'accepted' };
}
