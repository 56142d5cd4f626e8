import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../db/client.js';
import { typed } from '../db/typed.js';

export type WebhookEventType =
  | 'link.created'
  | 'link.sent'
  | 'link.opened'
  | 'step.completed'
  | 'payment.approved'
  | 'payment.refunded'
  | 'payment.needs_attention'
  | 'link.cancelled'
  | 'link.expired'
  | 'installment.paid'
  | 'installment.failed'
  | 'plan.created'
  | 'installment.notified'
  | 'plan.cancelled';

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
  const db = typed(tx);
  const wanted = await db
    .selectFrom('webhook_endpoint')
    .select('id')
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`${type} = any(events)`)
    .limit(1)
    .executeTakeFirst();
  if (!wanted) return null;
  const id = `evt_${randomBytes(16).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, type, created, data });
  await db
    .insertInto('webhook_event')
    .values({ id, type, link_id: data.linkId ?? null, body })
    .execute();
  // One delivery per endpoint subscribed to the type: INSERT ... SELECT.
  await db
    .insertInto('webhook_delivery')
    .columns(['event_id', 'endpoint_id'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoint as e')
        .select([sql<string>`${id}`.as('event_id'), 'e.id'])
        .where('e.deleted_at', 'is', null)
        .where(sql<boolean>`${type} = any(e.events)`),
    )
    .execute();
  return { id };
}
