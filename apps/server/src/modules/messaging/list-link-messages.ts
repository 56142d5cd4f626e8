import type { LinkMessage } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';

/** The link's messages (sends, reminders, sign-in) with delivery statuses, and its reminder state; null = no link. */
export async function listLinkMessages(q: Queryable, linkId: string) {
  const db = typed(q);
  const link = await db.selectFrom('link').select('reminders_enabled').where('id', '=', linkId).executeTakeFirst();
  if (!link) return null;
  const rows = await db
    .selectFrom('outbox_message')
    .select([
      'id',
      'channel',
      'kind',
      'to_address',
      'subject',
      'status',
      'delivery_status',
      'delivery_error',
      'created_at',
      'delivery_updated_at',
    ])
    .where('link_id', '=', linkId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const rem = await db
    .selectFrom('link_reminder')
    .select(['next_check_at', 'reminders_sent'])
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    messages: rows.map((m): LinkMessage => ({
      id: m.id,
      channel: m.channel,
      kind: m.kind,
      to: m.to_address,
      subject: m.subject,
      status: m.status,
      deliveryStatus: m.delivery_status,
      deliveryError: m.delivery_error,
      createdAt: new Date(m.created_at).toISOString(),
      deliveryUpdatedAt: iso(m.delivery_updated_at),
    })),
    reminders: {
      enabled: link.reminders_enabled,
      nextCheckAt: link.reminders_enabled ? iso(rem?.next_check_at ?? null) : null,
      sent: rem?.reminders_sent ?? 0,
    },
  };
}
