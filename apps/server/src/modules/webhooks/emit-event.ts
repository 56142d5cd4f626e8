import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';

export const WEBHOOK_EVENT_TYPES = [
  'link.created',
  'link.sent',
  'link.opened',
  'step.completed',
  'payment.approved',
  'payment.refunded',
  'payment.needs_attention',
  'link.cancelled',
  'link.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Records an event and queues one delivery per live endpoint subscribed to it, in the caller's transaction: the event
 * exists (and will be delivered, with retries) only if the change that caused it commits. The body is fixed here, so
 * every attempt and replay sends the same bytes. Events carry ids and money facts, never health details.
 */
export async function emitWebhookEvent(
  tx: Queryable,
  type: WebhookEventType,
  data: Record<string, unknown> & { linkId?: string | null },
): Promise<{ id: string } | null> {
  // No endpoint wants it: nothing to record (most audit actions on a practice without webhooks).
  const wanted = await tx.query(
    'select 1 from webhook_endpoint where deleted_at is null and $1 = any(events) limit 1',
    [type],
  );
  if (wanted.rowCount === 0) return null;
  const id = `evt_${randomBytes(16).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, type, created, data });
  await tx.query('insert into webhook_event (id, type, link_id, body) values ($1, $2, $3, $4)', [
    id,
    type,
    data.linkId ?? null,
    body,
  ]);
  await tx.query(
    `insert into webhook_delivery (event_id, endpoint_id)
     select $1, e.id from webhook_endpoint e where e.deleted_at is null and $2 = any(e.events)`,
    [id, type],
  );
  return { id };
}
