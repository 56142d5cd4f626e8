import type { AppContext } from '../../context.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { AuthError } from './auth-errors.js';

/** The captcha check before any send: a failure is audited and answered auth/captcha-check-failed. */
export async function requireCaptcha(
  ctx: AppContext,
  opts: { token: string | undefined; actor: AuditActor; action: string; linkId: string },
): Promise<void> {
  const captcha = await ctx.providers.captcha.verify({ token: opts.token, remoteIp: opts.actor.ip ?? undefined });
  if (captcha.ok) return;
  await auditAuth(ctx.db, opts.actor, `${opts.action}.captcha_failed`, opts.linkId, { errorCodes: captcha.errorCodes });
  throw new AuthError('auth/captcha-check-failed', 'The security check failed. Reload the page and try again.');
}
