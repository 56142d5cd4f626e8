import { LINK_ID_PATTERN, type SignInMethod } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { LinkStateError } from '../../lib/errors.js';
import { getSignInOptions } from './get-sign-in-options.js';

/**
 * The sign-in method written into the HTML of `/auth?id=<link>` (decision 0185), so the page shows its sign-in
 * instruction before the JavaScript and the options call; null when the page should show none: no valid id, an
 * e-mailed sign-in link (`oobCode`: the page finishes that sign-in instead), a link that cannot sign in, or any
 * failure (the page then asks as before). It tells no more than `GET /api/auth/options` tells the same request.
 */
export async function getSignInHint(
  ctx: AppContext,
  opts: { linkId: unknown; oobCode: unknown },
): Promise<SignInMethod | null> {
  if (typeof opts.linkId !== 'string' || !LINK_ID_PATTERN.test(opts.linkId) || opts.oobCode !== undefined) return null;
  try {
    return (await getSignInOptions(ctx, { linkId: opts.linkId })).method;
  } catch (err) {
    if (!(err instanceof LinkStateError)) ctx.log.warn({ err }, 'sign-in page: no method hint');
    return null;
  }
}
