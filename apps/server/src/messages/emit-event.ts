import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.js';
import { AuditStatement } from '../lib/audit.js';

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
 * every attempt and replay sends the same bytes. Events carry ids and money facts, never health details. One
 * statement (`webhookEventCtes`).
 */
export async function emitWebhookEvent(
  tx: Queryable,
  type: WebhookEventType,
  data: Record<string, unknown> & { linkId?: string | null },
): Promise<{ id: string } | null> {
  const st = new AuditStatement();
  const event = webhookEventCtes(st, type, data);
  const r = await tx.query<{ id: string }>(`with ${st.ctes.join(',\n  ')}\nselect id from ${event}`, st.params);
  return r.rows[0] ?? null;
}

/**
 * The event and its deliveries as CTEs of `st` (an audit row's statement, or emitWebhookEvent's own): the endpoints
 * subscribed to `type` are read once; with none, nothing is recorded (most audit actions on a practice without
 * webhooks). Returns the name of the CTE that returns the event's id (no row when nothing was recorded).
 */
export function webhookEventCtes(
  st: AuditStatement,
  type: WebhookEventType,
  data: Record<string, unknown> & { linkId?: string | null },
): string {
  const id = `evt_${randomBytes(16).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, type, created, data });
  const t = st.param(type);
  // Under a guard (guardedChangeWithAudit) no endpoint is read unless the change applied: no event, no delivery.
  const endpoints = st.cte(
    `select id from webhook_endpoint where deleted_at is null and ${t} = any(events)${st.onlyIfGuard()}`,
  );
  const event = st.cte(
    `insert into webhook_event (id, type, link_id, body)
    select ${st.param(id)}, ${t}, ${st.param(data.linkId ?? null)}, ${st.param(body)}
    where exists (select 1 from ${endpoints}) returning id`,
  );
  // One delivery per endpoint subscribed to the type (the delivery's foreign key is checked at the statement's end).
  st.cte(
    `insert into webhook_delivery (event_id, endpoint_id) select ${event}.id, ${endpoints}.id from ${event}, ${endpoints}`,
  );
  return event;
}
