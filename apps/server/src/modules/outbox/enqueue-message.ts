import type { Queryable } from '../../db/client.js';

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
  const r = await tx.query<{ id: string }>(
    `insert into outbox_message (channel, kind, to_address, subject, body_text, body_html, link_id, headers)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [
      msg.channel,
      msg.kind,
      to,
      msg.channel === 'email' ? (msg.subject ?? '') : null,
      msg.text,
      msg.html ?? null,
      msg.linkId ?? null,
      msg.channel === 'email' && msg.headers ? JSON.stringify(msg.headers) : null,
    ],
  );
  return { id: r.rows[0]!.id };
}
