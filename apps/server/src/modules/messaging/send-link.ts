import type { MessageChannel } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { findLink, linkState } from '../links/link-queries.js';
import { enqueueMessage } from '../outbox/enqueue-message.js';
import { formatDay, linkTimeZone, patientUrl, practiceFor, unsubscribeFor } from './link-messages.js';
import { linkEmail, linkSms } from './message-texts.js';
import { isOptedOut, mask } from './opt-outs.js';

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
    throw conflict('link_not_active', `This link is ${state}; only an active link can be sent.`);
  }
  const to = channel === 'sms' ? link.phone : link.email;
  if (!to) {
    throw new AppError(
      400,
      'invalid_request',
      channel === 'sms' ? 'This link has no phone number to text.' : 'This link has no e-mail address.',
      { channel: channel === 'sms' ? 'the link has no phone number' : 'the link has no e-mail address' },
    );
  }
  if (await isOptedOut(tx, channel, to)) {
    throw conflict(
      'opted_out',
      `${mask(channel, to)} opted out of ${channel === 'sms' ? 'text messages' : 'e-mails'} from the practice; ` +
        'send it another way or ask the patient to reply START.',
    );
  }
  const staff = o.senderId
    ? await tx.query<{ name: string }>('select name from staff_user where id = $1', [o.senderId])
    : { rows: [] };
  const coordinatorName = staff.rows[0]?.name ?? '';
  const practice = await practiceFor(tx, config);
  const lang = link.language;
  const url = patientUrl(config, link);
  const expiresOn = formatDay(new Date(link.expires_at), lang, linkTimeZone(config, link));
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
  await tx.query(
    `insert into link_reminder (link_id, channel, first_sent_at, last_sent_at, next_check_at)
     values ($1, $2, now(), now(), now())
     on conflict (link_id) do update set channel = $2, last_sent_at = now(), next_check_at = now(), updated_at = now()`,
    [link.id, channel],
  );
  await writeAudit(tx, {
    ...o.actor,
    action: 'link.sent',
    linkId: link.id,
    details: { channel, to: mask(channel, to), messageId: message.id, outboxId: message.id },
  });
  return { id: message.id, channel, to };
}
