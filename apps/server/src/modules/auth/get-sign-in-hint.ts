import { LINK_ID_PATTERN, type FirstScreenValues, type SignInMethod } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/audit.js';
import { LinkStateError } from '../../lib/errors.js';
import { getAppConfig } from '../app-config/index.js';
import { lookupPhone, requireUsableLink } from '../links/index.js';

/**
 * The sign-in method written into the HTML of `/auth?id=<link>` (decision 0185), so the page shows its sign-in
 * instruction before the JavaScript and the options call, and the link's language (the last guess for the first
 * screen's, decision 0226); null when the page should show none: no valid id, an e-mailed sign-in link (`oobCode`:
 * the page finishes that sign-in instead), a link that cannot sign in, or any failure (the page then asks as before).
 * It tells no more than `GET /api/auth/options` tells the same request, and reads the link as that call does.
 */
export async function getSignInHint(
  ctx: AppContext,
  opts: { linkId: unknown; oobCode: unknown },
): Promise<{ method: SignInMethod; language: string } | null> {
  if (typeof opts.linkId !== 'string' || !LINK_ID_PATTERN.test(opts.linkId) || opts.oobCode !== undefined) return null;
  try {
    const link = await requireUsableLink(ctx.db, opts.linkId, { signIn: true });
    return { method: link.sign_in_method, language: link.language };
  } catch (err) {
    if (!(err instanceof LinkStateError)) ctx.log.warn({ err }, 'sign-in page: no method hint');
    return null;
  }
}

/**
 * What /auth's first screen shows as static HTML (decision 0226) besides its translations: the practice as
 * `GET /api/config` gives it and, on an SMS link, the masked phone as `GET /api/patients/:id/notoken` gives it, read
 * the same way (audited alike: one row per link per hour). Null on any failure: the page then has the method alone.
 */
export async function getSignInScreenValues(
  ctx: AppContext,
  opts: { linkId: string; method: SignInMethod; actor: Actor },
): Promise<FirstScreenValues | null> {
  try {
    const [config, phone] = await Promise.all([
      getAppConfig(ctx),
      opts.method === 'sms' ? lookupPhone({ db: ctx.db, actor: opts.actor, linkId: opts.linkId }) : undefined,
    ]);
    return { practice: config.practice, ...(phone === undefined ? {} : { phone }) };
  } catch (err) {
    if (!(err instanceof LinkStateError)) ctx.log.warn({ err }, 'sign-in page: no first screen');
    return null;
  }
}
