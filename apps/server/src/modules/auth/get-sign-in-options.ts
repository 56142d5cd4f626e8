import type { AuthOptions } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { requireUsableLink } from '../links/index.js';

/** How the /auth page signs this link in: the coordinator's method, and the captcha widget's site key (if any). */
export async function getSignInOptions(ctx: AppContext, opts: { linkId: string }): Promise<AuthOptions> {
  const link = await requireUsableLink(ctx.db, opts.linkId, { signIn: true });
  return { method: link.sign_in_method, captchaSiteKey: ctx.providers.captcha.siteKey };
}
