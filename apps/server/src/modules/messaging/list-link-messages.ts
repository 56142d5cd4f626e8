import type { LinkMessage } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

/** The link's messages (sends, reminders, sign-in) with delivery statuses, and its reminder state; null = no link. */
export async function listLinkMessages(q: Queryable, linkId: string) {
  const link = await q.query<{ reminders_enabled: boolean }>('select reminders_enabled from link where id = $1', [
    linkId,
  ]);
  if (!link.rows[0]) return null;
  const rows = await q.query<{
    id: string;
    channel: 'sms' | 'email';
    kind: string;
    to_address: string;
    subject: string | null;
    status: LinkMessage['status'];
    delivery_status: LinkMessage['deliveryStatus'];
    delivery_error: string | null;
    created_at: Date;
    delivery_updated_at: Date | null;
  }>(
    `select id, channel, kind, to_address, subject, status, delivery_status, delivery_error, created_at,
       delivery_updated_at from outbox_message where link_id = $1 order by created_at, id`,
    [linkId],
  );
  const rem = await q.query<{ next_check_at: Date | null; reminders_sent: number }>(
    'select next_check_at, reminders_sent from link_reminder where link_id = $1',
    [linkId],
  );
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    messages: rows.rows.map((m): LinkMessage => ({
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
      enabled: link.rows[0].reminders_enabled,
      nextCheckAt: link.rows[0].reminders_enabled ? iso(rem.rows[0]?.next_check_at ?? null) : null,
      sent: rem.rows[0]?.reminders_sent ?? 0,
    },
  };
}
