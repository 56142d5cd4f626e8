import type { WebhookEndpoint } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { deleteEndpoint, findLiveEndpoint, toEndpoint } from './webhook-queries.js';

/** Deletes an endpoint; its pending deliveries stop. */
export async function deleteWebhook(o: { db: Db; actor: Actor; id: string }): Promise<WebhookEndpoint> {
  const row = await findLiveEndpoint(o.db, o.id);
  if (!row) throw notFound('No webhook endpoint with this id.');
  await o.db.transaction(async (tx) => {
    await deleteEndpoint(tx, row.id);
    await writeAudit(tx, { ...o.actor, action: 'webhook.deleted', details: { webhookId: row.id } });
  });
  return toEndpoint(row);
}
