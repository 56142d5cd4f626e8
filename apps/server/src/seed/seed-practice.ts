import type { Config } from '../config.js';
import type { Queryable } from '../db/client.js';
import { forgetPracticeRows } from '../lib/practice-rows.js';

/** The practice row (id 1) follows PRACTICE_* config on every boot. */
export async function seedPractice(q: Queryable, config: Config): Promise<void> {
  await q.query(
    `insert into practice (id, name, support_phone, support_email, sender_name, logo_url)
     values (1, $1, $2, $3, $4, $5)
     on conflict (id) do update set name = excluded.name, support_phone = excluded.support_phone,
       support_email = excluded.support_email, sender_name = excluded.sender_name, logo_url = excluded.logo_url,
       updated_at = now()
     where (practice.name, practice.support_phone, practice.support_email, practice.sender_name, practice.logo_url)
       is distinct from (excluded.name, excluded.support_phone, excluded.support_email, excluded.sender_name,
       excluded.logo_url)`,
    [
      config.PRACTICE_NAME,
      config.PRACTICE_PHONE,
      config.PRACTICE_EMAIL,
      config.senderName,
      config.PRACTICE_LOGO_URL ?? null,
    ],
  );
  forgetPracticeRows(q);
}
