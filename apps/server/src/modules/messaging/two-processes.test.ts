import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../db/client.js';
import { freePort } from '../../../test/support/ports.js';

/**
 * Two real server processes on one PostgreSQL database, reminders in seconds: every due reminder is sent exactly once.
 * Needs DATABASE_URL (CI's second pass); skipped otherwise.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const DATABASE_URL = process.env.DATABASE_URL;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (c.exitCode === null) c.kill('SIGKILL');
    }
  }
  for (const f of cleanups) await f();
});

async function startServer(env: Record<string, string>) {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-msg-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('PAYLINK_') && !k.startsWith('REMINDER_') && k !== 'DATABASE_URL' && k !== 'PORT',
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...base,
      PORT: String(port),
      SIGN_PORT: String(signPort),
      GATEWAY_PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      PAYLINK_DATA_DIR: dataDir,
      PAYLINK_MODE: 'sandbox',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  while (!output.includes('npm run paylink -- --help')) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  return { url: `http://localhost:${port}`, token };
}

async function freshDatabase(): Promise<{ url: string; db: Db }> {
  const name = `paylink_msg_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(DATABASE_URL!);
  u.pathname = `/${name}`;
  const db = openPostgres(u.toString());
  cleanups.push(async () => {
    await db.close();
    const a = new pg.Client({ connectionString: DATABASE_URL });
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  });
  return { url: u.toString(), db };
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
    const servers = await Promise.all([startServer(env), startServer(env)]);
    const links: string[] = [];
    for (let i = 0; i < 12; i++) {
      const s = servers[i % 2]!;
      const res = await fetch(`${s.url}/api/admin/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
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
