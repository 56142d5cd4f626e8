import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';

export interface OutboxItem {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  kind: string;
  status: 'pending' | 'sent' | 'failed';
  /** What the provider reported (Twilio status callbacks, SMTP accepted/refused); null until it answers. */
  deliveryStatus: string | null;
  deliveryError: string | null;
  createdAt: string;
}

/** Newest first. `to` matches an e-mail address case-insensitively, or a phone number by its last 10 digits. */
export async function listOutbox(q: Queryable, opts: { to?: string; limit?: number } = {}): Promise<OutboxItem[]> {
  const to = opts.to?.trim();
  let query = typed(q)
    .selectFrom('outbox_message')
    .select([
      'id',
      'channel',
      'to_address',
      'subject',
      'body_text',
      'body_html',
      'kind',
      'status',
      'delivery_status',
      'delivery_error',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit ?? 200);
  if (to) {
    const digits = to.replace(/\D/g, '');
    query =
      !to.includes('@') && digits.length >= 7
        ? query
            .where('channel', '=', 'sms')
            .where(sql<string>`right(regexp_replace(to_address, '\\D', '', 'g'), 10)`, '=', digits.slice(-10))
        : query.where(sql<string>`lower(to_address)`, '=', to.toLowerCase());
  }
  const rows = await query.execute();
  return rows.map((m) => ({
    id: m.id,
    channel: m.channel,
    to: m.to_address,
    subject: m.subject,
    text: m.body_text,
    html: m.body_html,
    kind: m.kind,
    status: m.status,
    deliveryStatus: m.delivery_status,
    deliveryError: m.delivery_error,
    createdAt: new Date(m.created_at).toISOString(),
  }));
}

/** The bodies of one queued message (the sandbox's outbox viewer). */
export async function findOutboxBody(q: Queryable, id: string) {
  return typed(q)
    .selectFrom('outbox_message')
    .select(['body_html', 'body_text'])
    .where('id', '=', id)
    .executeTakeFirst();
}
