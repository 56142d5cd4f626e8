import type { WebhookEndpoint } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { newWebhookSecret } from './signature.js';
import { findLiveEndpoint, replaceEndpointSecret, toEndpoint } from './webhook-queries.js';

/** A new signing secret, answered once; the old one stops at once. */
export async function rotateWebhookSecret(o: {
  db: Db;
  actor: Actor;
  id: string;
}): Promise<WebhookEndpoint & { secret: string }> {
  if (!(await findLiveEndpoint(o.db, o.id))) throw notFound('No webhook endpoint with this id.');
  const secret = newWebhookSecret();
  const row = await o.db.transaction(async (tx) => {
    const row = await replaceEndpointSecret(tx, o.id, secret);
    await writeAudit(tx, { ...o.actor, action: 'webhook.secret_rotated', details: { webhookId: o.id } });
    return row;
  });
  return { ...toEndpoint(row), secret };
}
