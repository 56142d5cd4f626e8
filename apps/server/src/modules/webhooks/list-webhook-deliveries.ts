import type { WebhookDelivery } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { endpointExists, listDeliveries, toDelivery } from './webhook-queries.js';

/** The latest deliveries to an endpoint (deleted ones too), newest first. */
export async function listWebhookDeliveries(o: {
  db: Db;
  endpointId: string;
  limit: number;
}): Promise<{ deliveries: WebhookDelivery[] }> {
  if (!(await endpointExists(o.db, o.endpointId))) throw notFound('No webhook endpoint with this id.');
  const rows = await listDeliveries(o.db, o.endpointId, o.limit);
  return { deliveries: rows.map(toDelivery) };
}
