import type { WebhookDelivery, WebhookEndpoint } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';

export type EndpointRow = Row<'webhook_endpoint'>;
type Attempt = { at: string; statusCode: number | null; error: string | null; durationMs: number };
export type DeliveryRow = Row<'webhook_delivery'> & { event_type: string; attempt_list: Attempt[] };

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  createdAt: iso(r.created_at)!,
  secretRotatedAt: iso(r.secret_rotated_at),
});

export const toDelivery = (d: DeliveryRow): WebhookDelivery => ({
  id: d.id,
  eventId: d.event_id,
  eventType: d.event_type,
  status: d.status,
  attempts: d.attempt_list.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null,
  createdAt: iso(d.created_at)!,
  deliveredAt: iso(d.delivered_at),
  replayOf: d.replay_of,
});

/** An endpoint that was not deleted. */
export async function findLiveEndpoint(q: Queryable, id: string): Promise<EndpointRow | undefined> {
  return typed(q)
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Deleted ones too: their deliveries stay listed. */
export async function endpointExists(q: Queryable, id: string): Promise<boolean> {
  const r = await typed(q).selectFrom('webhook_endpoint').select('id').where('id', '=', id).executeTakeFirst();
  return r !== undefined;
}

export async function listLiveEndpoints(q: Queryable): Promise<EndpointRow[]> {
  return typed(q)
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function insertEndpoint(
  q: Queryable,
  v: { url: string; events: string[]; secret: string; description: string; createdBy: string },
): Promise<EndpointRow> {
  return typed(q)
    .insertInto('webhook_endpoint')
    .values({ url: v.url, events: v.events, secret: v.secret, description: v.description, created_by: v.createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks the endpoint deleted and fails its pending deliveries (the worker skips failed ones). */
export async function deleteEndpoint(q: Queryable, id: string): Promise<void> {
  await typed(q)
    .updateTable('webhook_endpoint')
    .set({ deleted_at: sql`now()` })
    .where('id', '=', id)
    .execute();
  await typed(q)
    .updateTable('webhook_delivery')
    .set({ status: 'failed', last_error: 'endpoint deleted' })
    .where('endpoint_id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function replaceEndpointSecret(q: Queryable, id: string, secret: string): Promise<EndpointRow> {
  return typed(q)
    .updateTable('webhook_endpoint')
    .set({ secret, secret_rotated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deliveries with their event type and every attempt (oldest first) folded into one jsonb list per delivery. */
function selectDeliveries(q: Queryable) {
  return typed(q)
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_event as ev', 'ev.id', 'd.event_id')
    .selectAll('d')
    .select('ev.type as event_type')
    .select(
      // A correlated jsonb_agg sub-select: clearer as SQL than as nested builder calls.
      sql<Attempt[]>`coalesce((select jsonb_agg(jsonb_build_object('at', a.at, 'statusCode', a.status_code,
        'error', a.error, 'durationMs', a.duration_ms) order by a.at, a.id) from webhook_attempt a
        where a.delivery_id = d.id), '[]'::jsonb)`.as('attempt_list'),
    );
}

export async function listDeliveries(q: Queryable, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return selectDeliveries(q)
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(limit)
    .execute();
}

export async function findDelivery(q: Queryable, id: string): Promise<DeliveryRow | undefined> {
  return selectDeliveries(q).where('d.id', '=', id).executeTakeFirst();
}

/** A delivery's event and endpoint, and whether the endpoint was deleted since. */
export async function findDeliveryTarget(q: Queryable, id: string) {
  return typed(q)
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_endpoint as e', 'e.id', 'd.endpoint_id')
    .select(['d.event_id', 'd.endpoint_id', 'e.deleted_at'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export async function insertReplay(
  q: Queryable,
  v: { eventId: string; endpointId: string; replayOf: string },
): Promise<{ id: string }> {
  return typed(q)
    .insertInto('webhook_delivery')
    .values({ event_id: v.eventId, endpoint_id: v.endpointId, replay_of: v.replayOf })
    .returning('id')
    .executeTakeFirstOrThrow();
}
