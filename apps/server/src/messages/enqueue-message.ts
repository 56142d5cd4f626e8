import type { Queryable } from '../db/client.js';
import { typed } from '../db/typed.js';

export interface OutboxMessageInput {
  channel: 'sms' | 'email';
  /** Phone number (SMS) or e-mail address. */
  to: string;
  /** E-mail subject; ignored for SMS. */
  subject?: string;
  text: string;
  html?: string;
  linkId?: string | null;
  /** What the message is, for logs and the dev outbox: 'signin-code', 'signin-link', 'receipt', ... */
  kind: string;
  /** Extra e-mail headers (List-Unsubscribe). */
  headers?: Record<string, string>;
}

/**
 * Puts a message in the outbox inside the caller's transaction: it is sent (by the outbox worker, with retries) only if
 * that transaction commits, and a provider outage or a restart loses nothing.
 */
export async function enqueueMessage(tx: Queryable, msg: OutboxMessageInput): Promise<{ id: string }> {
  const to = msg.to.trim();
  if (!to) throw new Error('enqueueMessage: empty recipient');
  return typed(tx)
    .insertInto('outbox_message')
    .values({
      channel: msg.channel,
      kind: msg.kind,
      to_address: to,
      subject: msg.channel === 'email' ? (msg.subject ?? '') : null,
      body_text: msg.text,
      body_html: msg.html ?? null,
      link_id: msg.linkId ?? null,
      headers: msg.channel === 'email' && msg.headers ? JSON.stringify(msg.headers) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
