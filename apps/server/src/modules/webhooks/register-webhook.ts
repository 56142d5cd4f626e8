import type { WebhookEndpoint } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { checkWebhookUrl, webhookPolicy } from './destination.js';
import { newWebhookSecret } from './signature.js';
import { insertEndpoint, toEndpoint } from './webhook-queries.js';

export interface RegisterWebhookOptions {
  db: Db;
  config: Pick<Config, 'mode' | 'WEBHOOK_ALLOW_PRIVATE'>;
  actor: Actor;
  staffUserId: string;
  url: string;
  events: string[];
  description: string;
}

/**
 * A new endpoint, answered with its signing secret (the only time besides rotation). HTTPS only in production mode,
 * no credentials in the URL, and only public addresses unless WEBHOOK_ALLOW_PRIVATE lists the range.
 */
export async function registerWebhook(o: RegisterWebhookOptions): Promise<WebhookEndpoint & { secret: string }> {
  const url = new URL(o.url);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && o.config.mode === 'sandbox')) {
    throw badRequest('The webhook URL must use https.', { url: 'must use https in production mode' });
  }
  if (url.username || url.password)
    throw badRequest('Put no credentials in the webhook URL.', { url: 'no user:password@' });
  const refused = await checkWebhookUrl(url.toString(), webhookPolicy(o.config));
  if (refused) {
    throw badRequest(
      `Webhooks go to public addresses only: ${refused}. An admin can allow a range with WEBHOOK_ALLOW_PRIVATE.`,
      { url: 'must not point at an internal address' },
    );
  }
  const secret = newWebhookSecret();
  const row = await o.db.transaction(async (tx) => {
    const row = await insertEndpoint(tx, {
      url: url.toString(),
      events: [...new Set(o.events)],
      secret,
      description: o.description,
      createdBy: o.staffUserId,
    });
    await writeAudit(tx, {
      ...o.actor,
      action: 'webhook.created',
      details: { webhookId: row.id, url: url.origin + url.pathname, events: o.events },
    });
    return row;
  });
  return { ...toEndpoint(row), secret };
}
