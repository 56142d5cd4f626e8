import { randomInt } from 'node:crypto';
import type { Language, SmsSendResult } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { enqueueMessage, loadPracticeInfo } from '../../messages/index.js';
import { signInCodeSms } from './sign-in-messages.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { hashOtp } from './auth-secret.js';
import { requireUsableLink } from '../links/index.js';
import { linkForSignIn } from './link-for-sign-in.js';
import { requireCaptcha } from './require-captcha.js';
import { checkSendLimit, recordSend, refuseLimitedSend } from './send-limits.js';

/** A 6-digit code from the CSPRNG (leading zeros kept). */
function newOtpCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * Sends a new code to the phone number on file for the link (never to a number from the request). The new code
 * replaces any earlier one. Captcha first, then the cooldown and hourly cap, which apply whatever the captcha said.
 */
export async function sendSmsCode(
  ctx: AppContext,
  opts: { linkId: string; captchaToken?: string; lng?: Language; actor: AuditActor },
): Promise<SmsSendResult> {
  const { config } = ctx;
  const action = 'auth.sms.send';
  await linkForSignIn(ctx.db, { linkId: opts.linkId, method: 'sms', actor: opts.actor, action });

  await requireCaptcha(ctx, { token: opts.captchaToken, actor: opts.actor, action, linkId: opts.linkId });

  // Hash before the transaction: the key lookup must not run on another connection while it is open (PGlite).
  const code = newOtpCode();
  const codeHash = await hashOtp(ctx, opts.linkId, code);
  const outcome = await ctx.db.transaction(async (tx) => {
    // Locks the link row: concurrent sends for this link, on any process, count one after the other.
    const link = await requireUsableLink(tx, opts.linkId, { forUpdate: true, signIn: true });
    const limit = await checkSendLimit(tx, { linkId: link.id, channel: 'sms', config });
    if (!limit.ok) return limit;
    await recordSend(tx, link.id, 'sms');

    // The new code replaces the earlier ones in the same statement (issue 30): the update sees only older rows.
    const ch = await tx.query<{ id: string }>(
      `with superseded as (update otp_challenge set superseded_at = now()
         where link_id = $1 and consumed_at is null and superseded_at is null)
       insert into otp_challenge (link_id, code_hash, expires_at, max_attempts)
       values ($1, $2, now() + make_interval(mins => $3), $4) returning id`,
      [link.id, codeHash, config.OTP_TTL_MINUTES, config.OTP_MAX_ATTEMPTS],
    );
    const practice = await loadPracticeInfo(tx, { name: config.PRACTICE_NAME });
    const msg = await enqueueMessage(tx, {
      channel: 'sms',
      to: link.phone,
      text: signInCodeSms({
        lang: opts.lng ?? link.language,
        practiceName: practice.name,
        code,
        minutes: config.OTP_TTL_MINUTES,
        publicUrl: config.publicUrl,
      }),
      linkId: link.id,
      kind: 'signin-code',
    });
    await auditAuth(tx, opts.actor, 'auth.sms.sent', link.id, { challengeId: ch.rows[0]!.id, outboxId: msg.id });
    return { ok: true as const };
  });

  if (!outcome.ok) {
    await refuseLimitedSend(ctx.db, { actor: opts.actor, action, linkId: opts.linkId, limit: outcome, what: 'code' });
  }
  return { resendAfterSeconds: config.OTP_RESEND_COOLDOWN_SECONDS, expiresInSeconds: config.OTP_TTL_MINUTES * 60 };
}
