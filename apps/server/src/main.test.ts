import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcesses } from '../test/support/server-process.js';
import { throwawayDatabase } from '../test/support/throwaway-database.js';
import { openPostgres } from './db/client.js';
import { MIGRATIONS_DIR } from './db/migrate.js';
import { issueSession } from './http/session-tokens.js';

/**
 * The server as `npm start` runs it: real processes on free ports. With DATABASE_URL, two processes share one fresh
 * database and must behave as one.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await stopServerProcesses();
  for (const f of cleanups) await f();
});

describe('npm start (one process, embedded PostgreSQL)', () => {
  it('prints the app URL, the demo links with their sign-in method and CLI usage; the token file works', async () => {
    const s = await startServerProcess({}, 'paylink-main-');
    const out = s.output();
    expect(out).toContain(`App:     ${s.url}`);
    expect(out).toMatch(/Patient pays \(deposit\)\s+active\s+sms/);
    expect(out).toMatch(/Payor pays\s+active\s+email/);
    expect(out).toContain(`${s.url}/dev/outbox`);
    expect(out).toContain('npm run paylink -- links create');
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const links = await fetch(`${s.url}/api/admin/links`, { headers: { authorization: `Bearer ${s.token()}` } });
    expect(((await links.json()) as { total: number }).total).toBe(6);
  }, 120_000);
});

const DATABASE_URL = process.env.DATABASE_URL;
describe.skipIf(!DATABASE_URL)('two server processes on one PostgreSQL database (needs DATABASE_URL)', () => {
  it('run migrations and seeding once, and share sessions and step changes', async () => {
    const fresh = await throwawayDatabase(DATABASE_URL!, 'paylink_two');
    const dbUrl = fresh.url;
    const db = openPostgres(dbUrl);
    cleanups.push(async () => {
      await db.close();
      await fresh.drop();
    });

    // Both boot at once against the empty database.
    const [a, b] = await Promise.all([
      startServerProcess({ DATABASE_URL: dbUrl }, 'paylink-main-'),
      startServerProcess({ DATABASE_URL: dbUrl }, 'paylink-main-'),
    ]);

    const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
    const applied = await db.query<{ name: string }>('select name from schema_migration order by name');
    expect(applied.rows.map((r) => r.name)).toEqual(files.sort());
    expect((await db.query(`select 1 from boot_task where name = 'demo_links'`)).rowCount).toBe(1);
    expect((await db.query('select 1 from link where demo_label is not null')).rowCount).toBe(6);
    expect((await db.query('select 1 from practice')).rowCount).toBe(1);

    // A patient session issued against the shared database works on both processes.
    const secret = await db.query<{ value: string }>(`select value from app_secret where name = 'session'`);
    const keys = { secret: new TextEncoder().encode(secret.rows[0]!.value), ttlMinutes: 60 };
    const created = await fetch(`${a.url}/api/admin/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Two', lastName: 'Process', phone: '(555) 010-0002' }),
    });
    const { id } = (await created.json()) as { id: string };
    const session = await issueSession({ db, keys, linkId: id, method: 'test' });
    const headers = { 'x-api-key': 'paylink-sandbox-api-key', authorization: `Bearer ${session.token}` };

    const steps = await fetch(`${a.url}/api/linksteps/script?linkId=${id}&paymentAmount=300`, {
      method: 'POST',
      headers,
    });
    expect(steps.status).toBe(200);
    const list = (await steps.json()) as { linkStepId: number; routePath: string }[];
    const put = await fetch(
      `${a.url}/api/linksteps?linkId=${id}&linkStepId=${list[1]!.linkStepId}&LinkStepStatusId=2`,
      {
        method: 'PUT',
        headers,
      },
    );
    expect(put.status).toBe(200);
    const check = await fetch(`${b.url}/api/linksteps/script/${id}/check`, { headers });
    expect(check.status).toBe(200);
    const restored = (await check.json()) as { linkStepScript: { linkStepStatusId: number }[] };
    expect(restored.linkStepScript[1]!.linkStepStatusId).toBe(2);

    // Cancelling through B (with B's own data-dir token) ends the session on A at once.
    const cancel = await fetch(`${b.url}/api/admin/links/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token()}` },
    });
    expect(cancel.status).toBe(200);
    const after = await fetch(`${a.url}/api/patients/patientinfo/${id}`, { headers });
    expect(after.status).toBe(401);
  }, 180_000);
});
