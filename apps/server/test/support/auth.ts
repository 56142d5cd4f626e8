import { newLinkId } from '../../src/lib/ids.js';
import type { Queryable } from '../../src/db/client.js';

/** Test support: a link row as a coordinator would create it (only the columns sign-in reads). */
export async function insertTestLink(
  db: Queryable,
  o: { method?: 'sms' | 'email'; language?: 'en' | 'es'; phone?: string; email?: string; firstName?: string } = {},
): Promise<string> {
  const id = newLinkId();
  await db.query(
    `insert into link (id, first_name, last_name, phone, email, sign_in_method, language, expires_at)
     values ($1, $2, 'Rivera', $3, $4, $5, $6, now() + interval '14 days')`,
    [
      id,
      o.firstName ?? 'Ana',
      o.phone ?? '(555) 201-4567',
      o.email ?? 'Ana.Rivera@Example.com',
      o.method ?? 'sms',
      o.language ?? 'en',
    ],
  );
  return id;
}

/** The newest outbox message to an address, as /api/dev/outbox shows it. */
export async function lastMessageTo(db: Queryable, to: string) {
  const r = await db.query<{ id: string; body_text: string; body_html: string | null; subject: string | null }>(
    'select id, body_text, body_html, subject from outbox_message where to_address = $1 order by created_at desc, id desc limit 1',
    [to],
  );
  return r.rows[0];
}

export const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
export const oobCodeIn = (text: string) => /oobCode=([A-Za-z0-9_-]+)/.exec(text)?.[1];
