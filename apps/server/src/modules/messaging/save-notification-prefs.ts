import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { upsertNotificationPrefs, type NotificationPrefs } from './messaging-queries.js';

/** A staff member's own notification choices, audited. */
export async function saveNotificationPrefs(
  o: { db: Db; actor: Actor; staffUserId: string } & NotificationPrefs,
): Promise<NotificationPrefs> {
  const { onPaid, onAttention } = o;
  await o.db.transaction(async (tx) => {
    await upsertNotificationPrefs(tx, o.staffUserId, { onPaid, onAttention });
    await writeAudit(tx, { ...o.actor, action: 'staff.notifications_changed', details: { onPaid, onAttention } });
  });
  return { onPaid, onAttention };
}
