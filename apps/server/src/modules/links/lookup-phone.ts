import { LINK_ID_PATTERN } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { auditInsertSql, auditParams, type Actor } from '../../lib/audit.js';
import { LinkStateError } from '../../lib/errors.js';
import { LINK_NOT_AUTHORIZED, USABLE_LINK_SQL, linkState, throwForLinkState, type LinkRow } from './link-queries.js';
import { maskPhone } from './mask-phone.js';

/** Built once: the same string on every read (no rebuilding or rehashing of the prepared statement's name). */
// open_plan: a paid or expired link whose payment plan has charges to come still signs in (decision 0211).
const LOOKUP_SQL = `with l as (select status, expires_at, phone,
                 exists (select 1 from payment_plan p where p.link_id = link.id and p.status in ('active', 'paused'))
                   as open_plan
               from link where id = $1),
          a as (${auditInsertSql(
            2,
            `l where (${USABLE_LINK_SQL('l')} or (l.open_plan and l.status in ('active', 'completed')))
               and not exists (
               select 1 from audit_event where link_id = $1 and action = 'patient.phone_lookup'
                 and at > now() - interval '1 hour')`,
          )})
     select status, expires_at, phone, open_plan, now() as db_now from l`;

/**
 * The sign-in page's phone number, masked; 401 text by link state (unknown ids included). One statement: the link
 * and, for a usable link not looked at in the last hour, the audit row (the page asks on every load: one row per
 * link per hour says it was looked at, without noise).
 */
export async function lookupPhone(opts: { db: Db; actor: Actor; linkId: string }): Promise<string> {
  if (!LINK_ID_PATTERN.test(opts.linkId)) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  const r = await opts.db.query<
    Pick<LinkRow, 'status' | 'expires_at' | 'phone'> & { db_now: Date; open_plan: boolean }
  >(LOOKUP_SQL, [opts.linkId, ...auditParams({ ...opts.actor, action: 'patient.phone_lookup', linkId: opts.linkId })], {
    prepared: true,
  });
  const link = r.rows[0];
  if (!link) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  // The database's clock decided the audit row; the same clock decides the answer.
  const state = linkState(link, new Date(link.db_now));
  if (!(link.open_plan && (state === 'completed' || state === 'expired'))) throwForLinkState(state);
  return maskPhone(link.phone);
}
