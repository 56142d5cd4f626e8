import type { Language } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';

/** Turns a link's reminders on (checked at once) or off; false when there is no such link. */
export async function setLinkReminders(q: Queryable, linkId: string, enabled: boolean): Promise<boolean> {
  const u = await typed(q)
    .updateTable('link')
    .set({ reminders_enabled: enabled, updated_at: sql`now()` })
    .where('id', '=', linkId)
    .executeTakeFirst();
  if (u.numUpdatedRows === 0n) return false;
  await typed(q)
    .updateTable('link_reminder')
    .set({ next_check_at: enabled ? sql`now()` : null, updated_at: sql`now()` })
    .where('link_id', '=', linkId)
    .execute();
  return true;
}

export interface NotificationPrefs {
  onPaid: boolean;
  onAttention: boolean;
}

/** A staff member's notification choices; both on until they say otherwise. */
export async function findNotificationPrefs(q: Queryable, staffUserId: string): Promise<NotificationPrefs> {
  const p = await typed(q)
    .selectFrom('staff_notification_pref')
    .select(['on_paid', 'on_attention'])
    .where('staff_user_id', '=', staffUserId)
    .executeTakeFirst();
  return { onPaid: p?.on_paid ?? true, onAttention: p?.on_attention ?? true };
}

export async function upsertNotificationPrefs(q: Queryable, staffUserId: string, p: NotificationPrefs): Promise<void> {
  await typed(q)
    .insertInto('staff_notification_pref')
    .values({ staff_user_id: staffUserId, on_paid: p.onPaid, on_attention: p.onAttention })
    .onConflict((oc) =>
      oc
        .column('staff_user_id')
        .doUpdateSet({ on_paid: p.onPaid, on_attention: p.onAttention, updated_at: sql`now()` }),
    )
    .execute();
}

/** The language of the newest link whose phone ends with these 10 digits, if any. */
export async function newestLanguageForPhone(q: Queryable, digits: string): Promise<Language | undefined> {
  const r = await typed(q)
    .selectFrom('link')
    .select('language')
    .where('phone', '<>', '')
    .where(sql<string>`right(regexp_replace(phone, '\\D', '', 'g'), 10)`, '=', digits)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.language;
}
