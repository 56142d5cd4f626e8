import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import type { DeliveryStatus } from '../../providers/sms/types.js';

/** Twilio's statuses mapped to ours; the rank keeps a late "sent" callback from undoing "delivered". */
const TWILIO: Record<string, DeliveryStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};
const RANK: Record<DeliveryStatus, number> = {
  queued: 0,
  accepted: 1,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
  refused: 2,
};

/**
 * A Twilio status callback: moves the message's delivery status forward (never back), and puts final outcomes
 * (delivered, undelivered, failed) on the link's timeline. Unknown messages and statuses are ignored.
 */
export async function recordTwilioStatus(
  tx: Queryable,
  o: { messageSid: string; status: string; errorCode?: string | null; requestId?: string },
): Promise<{ updated: boolean }> {
  const status = TWILIO[o.status.toLowerCase()];
  if (!status) return { updated: false };
  const m = await typed(tx)
    .selectFrom('outbox_message')
    .select(['id', 'link_id', 'delivery_status', 'kind'])
    .where('provider_id', '=', o.messageSid)
    .where('channel', '=', 'sms')
    .forUpdate()
    .executeTakeFirst();
  if (!m) return { updated: false };
  if (m.delivery_status && RANK[m.delivery_status] >= RANK[status]) return { updated: false };
  await typed(tx)
    .updateTable('outbox_message')
    .set({
      delivery_status: status,
      delivery_error: sql`coalesce(${o.errorCode || null}, delivery_error)`,
      delivery_updated_at: sql`now()`,
    })
    .where('id', '=', m.id)
    .execute();
  if (m.link_id && RANK[status] === 2) {
    await writeAudit(tx, {
      actorType: 'system',
      action: 'message.delivery',
      linkId: m.link_id,
      requestId: o.requestId,
      details: { messageId: m.id, kind: m.kind, channel: 'sms', status, errorCode: o.errorCode || undefined },
    });
  }
  return { updated: true };
}
