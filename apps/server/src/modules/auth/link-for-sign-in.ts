import type { Queryable } from '../../db/client.js';
import { LinkStateError } from '../../lib/errors.js';
import { LINK_NOT_AUTHORIZED, requireUsableLink, type LinkRow } from '../links/index.js';
import { auditAuth, type AuditActor } from './auth-audit.js';

/**
 * The link a sign-in request names, if it is usable and uses `method`. Every refusal is the phone lookup's 401 text:
 * an unknown id and a link with the other method both get 'Not Authorized', so nobody learns which ids exist.
 * Refusals of existing links are audited.
 */
export async function linkForSignIn(
  q: Queryable,
  opts: { linkId: string; method?: 'sms' | 'email'; forUpdate?: boolean; actor: AuditActor; action: string },
): Promise<LinkRow> {
  let link: LinkRow;
  try {
    link = await requireUsableLink(q, opts.linkId, { forUpdate: opts.forUpdate, signIn: true });
  } catch (err) {
    if (err instanceof LinkStateError && err.body !== LINK_NOT_AUTHORIZED) {
      await auditAuth(q, opts.actor, `${opts.action}.refused`, opts.linkId, { reason: err.body });
    }
    throw err;
  }
  if (opts.method && link.sign_in_method !== opts.method) {
    await auditAuth(q, opts.actor, `${opts.action}.refused`, link.id, { reason: 'wrong-method' });
    throw new LinkStateError(LINK_NOT_AUTHORIZED);
  }
  return link;
}
