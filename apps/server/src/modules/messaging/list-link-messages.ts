import type { LinkMessage } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { nextAllowedTime } from '../../lib/time-zones.js';
import { messageTimeZone } from '../app-config/index.js';
import { loadReminderPlan } from './reminder-plan.js';

/** The link's messages (sends, reminders, sign-in) with delivery statuses, and its reminder state; null = no link. */
export async function listLinkMessages(q: Queryable, opts: { config: Config; linkId: string; now?: Date }) {
  const { linkId } = opts;
  const db = typed(q);
  const link = await db
    .selectFrom('link')
    .select(['reminders_enabled', 'state', 'zip_code', 'phone'])
    .where('id', '=', linkId)
    .executeTakeFirst();
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
  // The zone and quiet hours the reminders and plan notices use, so staff see when a text may go out.
  const zone = await messageTimeZone(q, opts.config, link);
  const plan = await loadReminderPlan(q, opts.config);
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
      timeZone: zone.timeZone,
      timeZoneSource: zone.source,
      nextTextAt: link.phone
        ? nextAllowedTime(opts.now ?? new Date(), zone.timeZone, plan.quietHours).toISOString()
        : null,
    },
  };
}
