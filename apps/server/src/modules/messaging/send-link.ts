import type { MessageChannel } from '@paylink/shared';
import type { Config } from '../../config.js';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { findLink, linkState } from '../links/index.js';
import { enqueueMessage } from '../../messages/index.js';
import { formatDay, linkTimeZone, patientUrl, practiceFor, unsubscribeFor } from './link-messages.js';
import { linkEmail, linkSms } from './message-texts.js';
import { isOptedOut, mask } from '../../messages/opt-outs.js';

/**
 * Sends a link's personal URL by SMS or e-mail through the outbox (in the caller's transaction), audits it, and starts
 * the link's reminder schedule. Refuses links that are not active, a channel without an address, and opted-out
 * addresses.
 */
export async function sendLink(o: {
  tx: Queryable;
  config: Config;
  actor: Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;
  linkId: string;
  channel: MessageChannel;
  /** The staff member sending it: named in the message. */
  senderId: string | null;
}): Promise<{ id: string; channel: MessageChannel; to: string }> {
  const { tx, config, channel } = o;
  const link = await findLink(tx, o.linkId, { forUpdate: true });
  if (!link) throw notFound('No link with this id.');
  const state = linkState(link);
  if (state !== 'active') {
    throw new AppError('link_not_active', `This link is ${state}; only an active link can be sent.`);
  }
  const to = channel === 'sms' ? link.phone : link.email;
  if (!to) {
    throw new AppError(
      'invalid_request',
      channel === 'sms' ? 'This link has no phone number to text.' : 'This link has no e-mail address.',
      { fields: { channel: channel === 'sms' ? 'the link has no phone number' : 'the link has no e-mail address' } },
    );
  }
  if (await isOptedOut(tx, channel, to)) {
    throw new AppError(
      'opted_out',
      `${mask(channel, to)} opted out of ${channel === 'sms' ? 'text messages' : 'e-mails'} from the practice; ` +
        'send it another way or ask the patient to reply START.',
    );
  }
  const staff = o.senderId
    ? await typed(tx).selectFrom('staff_user').select('name').where('id', '=', o.senderId).executeTakeFirst()
    : undefined;
  const coordinatorName = staff?.name ?? '';
  const practice = await practiceFor(tx, config);
  const lang = link.language;
  const url = patientUrl(config, link);
  const expiresOn = formatDay(new Date(link.expires_at), lang, await linkTimeZone(tx, config, link));
  let message: { id: string };
  if (channel === 'sms') {
    const text = linkSms({ lang, practiceName: practice.name, coordinatorName, firstName: link.first_name, url });
    message = await enqueueMessage(tx, { channel, to, text, linkId: link.id, kind: 'link-send' });
  } else {
    const unsub = await unsubscribeFor(tx, config, to);
    const mail = linkEmail({
      lang,
      practice,
      coordinatorName,
      firstName: link.first_name,
      url,
      expiresOn,
      unsubscribeUrl: unsub.url,
    });
    message = await enqueueMessage(tx, {
      channel,
      to,
      ...mail,
      linkId: link.id,
      kind: 'link-send',
      headers: unsub.headers,
    });
  }
  await typed(tx)
    .insertInto('link_reminder')
    .values({
      link_id: link.id,
      channel,
      first_sent_at: sql`now()`,
      last_sent_at: sql`now()`,
      next_check_at: sql`now()`,
    })
    .onConflict((oc) =>
      oc
        .column('link_id')
        .doUpdateSet({ channel, last_sent_at: sql`now()`, next_check_at: sql`now()`, updated_at: sql`now()` }),
    )
    .execute();
  await writeAudit(tx, {
    ...o.actor,
    action: 'link.sent',
    linkId: link.id,
    details: { channel, to: mask(channel, to), messageId: message.id, outboxId: message.id },
  });
  return { id: message.id, channel, to };
}
