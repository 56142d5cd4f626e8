import type { WebhookDelivery } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { findDelivery, findDeliveryTarget, insertReplay, toDelivery } from './webhook-queries.js';

/** Sends a delivery's event again: a new delivery with the same event id and body, to the same live endpoint. */
export async function replayWebhookDelivery(o: { db: Db; actor: Actor; deliveryId: string }): Promise<WebhookDelivery> {
  const row = await o.db.transaction(async (tx) => {
    const d = await findDeliveryTarget(tx, o.deliveryId);
    if (!d) throw notFound('No webhook delivery with this id.');
    if (d.deleted_at) throw badRequest('The endpoint of this delivery was deleted.');
    const ins = await insertReplay(tx, { eventId: d.event_id, endpointId: d.endpoint_id, replayOf: o.deliveryId });
    await writeAudit(tx, {
      ...o.actor,
      action: 'webhook.replayed',
      details: { deliveryId: o.deliveryId, newDeliveryId: ins.id, eventId: d.event_id },
    });
    return (await findDelivery(tx, ins.id))!;
  });
  return toDelivery(row);
}
