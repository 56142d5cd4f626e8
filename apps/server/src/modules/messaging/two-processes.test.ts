import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcesses } from '../../../test/support/server-process.js';
import { throwawayDatabase } from '../../../test/support/throwaway-database.js';
import { openPostgres, type Db } from '../../db/client.js';

/**
 * Two real server processes on one PostgreSQL database, reminders in seconds: every due reminder is sent exactly once.
 * Needs DATABASE_URL (CI's second pass); skipped otherwise.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await stopServerProcesses();
  for (const f of cleanups) await f();
});

async function freshDatabase(): Promise<{ url: string; db: Db }> {
  const fresh = await throwawayDatabase(DATABASE_URL!, 'paylink_msg');
  const db = openPostgres(fresh.url);
  cleanups.push(async () => {
    await db.close();
    await fresh.drop();
  });
  return { url: fresh.url, db };
}

describe.skipIf(!DATABASE_URL)('reminders with two server processes on one PostgreSQL database', () => {
  it('each due reminder is sent exactly once', { timeout: 240_000 }, async () => {
    const { url, db } = await freshDatabase();
    const env = {
      DATABASE_URL: url,
      REMINDER_UNOPENED_AFTER: '3s',
      REMINDER_STALLED_AFTER: 'off',
      REMINDER_BEFORE_EXPIRY: 'off',
      REMINDER_QUIET_HOURS: 'off',
      REMINDER_MIN_GAP: '1h',
      REMINDER_POLL_INTERVAL: '1s',
    };
    const servers = await Promise.all([
      startServerProcess(env, 'paylink-msg-'),
      startServerProcess(env, 'paylink-msg-'),
    ]);
    const links: string[] = [];
    for (let i = 0; i < 12; i++) {
      const s = servers[i % 2]!;
      const res = await fetch(`${s.url}/api/admin/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Pat', lastName: `Two${i}`, phone: `(555) 501-00${10 + i}`, send: 'sms' }),
      });
      expect(res.status).toBe(201);
      links.push(((await res.json()) as { id: string }).id);
    }
    // Until every link got its reminder and no reminder row is due again for the next half hour.
    for (;;) {
      const r = await db.query<{ sent: number; due: number }>(
        `select (select count(*)::int from outbox_message where kind = 'link-reminder') as sent,
           (select count(*)::int from link_reminder
            where next_check_at is not null and next_check_at < now() + interval '30 minutes') as due`,
      );
      if (r.rows[0]!.sent >= links.length && r.rows[0]!.due === 0) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const per = await db.query<{ link_id: string; n: number }>(
      `select link_id, count(*)::int as n from outbox_message where kind = 'link-reminder' group by link_id`,
    );
    expect(per.rows.map((r) => r.link_id).sort()).toEqual([...links].sort());
    expect(per.rows.every((r) => r.n === 1)).toBe(true);
    const audited = await db.query(`select 1 from audit_event where action = 'link.reminded'`);
    expect(audited.rowCount).toBe(links.length);
  });
});
