import type { EmailSendResult, Language } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { newToken } from '../../lib/ids.js';
import { requireUsableLink } from '../links/index.js';
import { enqueueMessage, loadPracticeInfo } from '../../messages/index.js';
import { signInLinkEmail } from './sign-in-messages.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { hashSignInToken } from './auth-secret.js';
import { linkForSignIn } from './link-for-sign-in.js';
import { requireCaptcha } from './require-captcha.js';
import { checkSendLimit, recordSend, refuseLimitedSend } from './send-limits.js';

/** The address in the e-mailed link; /auth shows a "Finish signing in" button that POSTs the oobCode. */
function signInUrl(publicUrl: string, linkId: string, token: string, lang: string): string {
  const q = new URLSearchParams({ id: linkId, mode: 'signIn', oobCode: token, lng: lang });
  return `${publicUrl}/auth?${q.toString()}`;
}

/**
 * E-mails a sign-in link only when the typed address matches the one on file (case-insensitive). The answer is the
 * same either way, and every request counts toward the cooldown and hourly cap, so the limits do not tell either.
 */
export async function sendEmailLink(
  ctx: AppContext,
  opts: { linkId: string; email: string; captchaToken?: string; lng?: Language; actor: AuditActor },
): Promise<EmailSendResult> {
  const { config } = ctx;
  const action = 'auth.email.send';
  await linkForSignIn(ctx.db, { linkId: opts.linkId, method: 'email', actor: opts.actor, action });

  await requireCaptcha(ctx, { token: opts.captchaToken, actor: opts.actor, action, linkId: opts.linkId });

  const token = newToken(32);
  const tokenHash = await hashSignInToken(ctx, token);
  const outcome = await ctx.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId, { forUpdate: true, signIn: true });
    const limit = await checkSendLimit(tx, { linkId: link.id, channel: 'email', config });
    if (!limit.ok) return limit;
    await recordSend(tx, link.id, 'email');

    const matches = link.email.trim().toLowerCase() === opts.email.trim().toLowerCase();
    if (!matches) {
      await auditAuth(tx, opts.actor, 'auth.email.mismatch', link.id);
      return { ok: true as const };
    }
    const t = await tx.query<{ id: string }>(
      `insert into email_signin_token (link_id, token_hash, expires_at)
       values ($1, $2, now() + make_interval(mins => $3)) returning id`,
      [link.id, tokenHash, config.EMAIL_LINK_TTL_MINUTES],
    );
    const practice = await loadPracticeInfo(tx, { name: config.PRACTICE_NAME, senderName: config.senderName });
    const mail = signInLinkEmail({
      lang: opts.lng ?? link.language,
      practice,
      firstName: link.first_name,
      url: signInUrl(config.publicUrl, link.id, token, opts.lng ?? link.language),
      minutes: config.EMAIL_LINK_TTL_MINUTES,
    });
    const msg = await enqueueMessage(tx, {
      channel: 'email',
      to: link.email.trim(),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      linkId: link.id,
      kind: 'signin-link',
    });
    await auditAuth(tx, opts.actor, 'auth.email.sent', link.id, { tokenId: t.rows[0]!.id, outboxId: msg.id });
    return { ok: true as const };
  });

  if (!outcome.ok) {
    await refuseLimitedSend(ctx.db, { actor: opts.actor, action, linkId: opts.linkId, limit: outcome, what: 'link' });
  }
  return { sent: true, resendAfterSeconds: config.OTP_RESEND_COOLDOWN_SECONDS };
}
