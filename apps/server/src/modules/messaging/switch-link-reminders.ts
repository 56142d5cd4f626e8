import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { setLinkReminders } from './messaging-queries.js';

/** Reminders on or off for one link, audited. */
export async function switchLinkReminders(o: {
  db: Db;
  actor: Actor;
  linkId: string;
  enabled: boolean;
}): Promise<{ enabled: boolean }> {
  return o.db.transaction(async (tx) => {
    if (!(await setLinkReminders(tx, o.linkId, o.enabled))) throw notFound('No link with this id.');
    await writeAudit(tx, {
      ...o.actor,
      action: o.enabled ? 'link.reminders_on' : 'link.reminders_off',
      linkId: o.linkId,
    });
    return { enabled: o.enabled };
  });
}
