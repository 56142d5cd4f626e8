import type { Queryable } from '../../db/client.js';

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
  const params: unknown[] = [opts.limit ?? 200];
  let where = '';
  if (to) {
    const digits = to.replace(/\D/g, '');
    if (!to.includes('@') && digits.length >= 7) {
      params.push(digits.slice(-10));
      where = `where channel = 'sms' and right(regexp_replace(to_address, '\\D', '', 'g'), 10) = $2`;
    } else {
      params.push(to.toLowerCase());
      where = 'where lower(to_address) = $2';
    }
  }
  const r = await q.query<{
    id: string;
    channel: 'sms' | 'email';
    to_address: string;
    subject: string | null;
    body_text: string;
    body_html: string | null;
    kind: string;
    status: OutboxItem['status'];
    delivery_status: string | null;
    delivery_error: string | null;
    created_at: Date;
  }>(
    `select id, channel, to_address, subject, body_text, body_html, kind, status, delivery_status, delivery_error,
       created_at from outbox_message
     ${where} order by created_at desc, id desc limit $1`,
    params,
  );
  return r.rows.map((m) => ({
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
