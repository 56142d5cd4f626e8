import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { verifyStaffToken } from '../modules/staff/staff-tokens.js';
import { createTestApp } from '../../test/support/context.js';
import { runBootSeed } from './boot-seed.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let dataDir: string;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-seed-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const config = (env: Record<string, string> = {}) =>
  loadConfig({ PAYLINK_DATA_DIR: dataDir, PORT: '8123', PRACTICE_NAME: 'Clinica Sol', ...env });

describe('boot seeding', () => {
  it('writes the practice row, a working admin token file (0600) and the six demo links once', async () => {
    const first = await runBootSeed(t.ctx.db, config());
    expect(first.demoLinksCreated).toBe(true);
    expect(first.demoLinks.map((d) => [d.label, d.state, d.signInMethod])).toEqual([
      ['Patient pays (deposit)', 'active', 'sms'],
      ['Payor pays', 'active', 'email'],
      ['Locked (partial payment, Spanish)', 'active', 'sms'],
      ['Expired', 'expired', 'sms'],
      ['Cancelled', 'cancelled', 'sms'],
      ['Completed', 'completed', 'sms'],
    ]);
    expect(first.demoLinks[0]!.url).toMatch(/^http:\/\/localhost:8123\/auth\?id=[A-Za-z0-9_-]{22}$/);
    const practice = await t.ctx.db.query<{ name: string }>('select name from practice where id = 1');
    expect(practice.rows[0]!.name).toBe('Clinica Sol');

    const file = first.adminTokenFile!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    expect(await verifyStaffToken(t.ctx.db, token)).toMatchObject({ role: 'admin' });

    const second = await runBootSeed(t.ctx.db, config({ PRACTICE_NAME: 'Clinica Luna' }));
    expect(second.demoLinksCreated).toBe(false);
    expect(second.demoLinks).toHaveLength(6);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(token);
    const renamed = await t.ctx.db.query<{ name: string }>('select name from practice where id = 1');
    expect(renamed.rows[0]!.name).toBe('Clinica Luna');
    const demoCount = await t.ctx.db.query('select 1 from link where demo_label is not null');
    expect(demoCount.rowCount).toBe(6);
    // The console's demo coordinator: created once, the same password printed on every start, and it signs in.
    expect(first.demoCoordinator).toMatchObject({ email: 'coordinator@paylink.localhost' });
    expect(second.demoCoordinator).toEqual(first.demoCoordinator);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      payload: { email: first.demoCoordinator!.email, password: first.demoCoordinator!.password },
    });
    expect(signIn.json()).toMatchObject({ status: 'signed_in', session: { user: { role: 'coordinator' } } });
  });

  it('creates the configured first admin, who can sign in', async () => {
    await runBootSeed(
      t.ctx.db,
      config({ PAYLINK_ADMIN_EMAIL: 'Boss@Example.com', PAYLINK_ADMIN_PASSWORD: 'a long admin password' }),
    );
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'boss@example.com', password: 'a long admin password' },
    });
    expect(r.statusCode).toBe(200);
    await expect(
      runBootSeed(t.ctx.db, config({ PAYLINK_ADMIN_EMAIL: 'x@example.com', PAYLINK_ADMIN_PASSWORD: 'short' })),
    ).rejects.toThrow(/at least 12/);
  });

  it('every admin locked out: a restart with a new PAYLINK_ADMIN_EMAIL adds an admin; a known address is left as is', async () => {
    const login = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
    await runBootSeed(
      t.ctx.db,
      config({ PAYLINK_ADMIN_EMAIL: 'first@example.com', PAYLINK_ADMIN_PASSWORD: 'the first admin password' }),
    );
    // The operator's break-glass (docs/console.md): another address, a restart, and that admin signs in.
    await runBootSeed(
      t.ctx.db,
      config({ PAYLINK_ADMIN_EMAIL: 'rescue@example.com', PAYLINK_ADMIN_PASSWORD: 'a rescue admin password' }),
    );
    const rescue = await login('rescue@example.com', 'a rescue admin password');
    expect(rescue.statusCode).toBe(200);
    const staff = await t.app.inject({
      method: 'GET',
      url: '/api/admin/staff',
      headers: { authorization: `Bearer ${rescue.json<{ token: string }>().token}` },
    });
    expect(staff.statusCode).toBe(200);
    expect(staff.json<{ staff: { email: string; role: string }[] }>().staff).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'rescue@example.com', role: 'admin' })]),
    );
    // Naming an existing account never changes its password: the variables cannot take over an account.
    await runBootSeed(
      t.ctx.db,
      config({ PAYLINK_ADMIN_EMAIL: 'first@example.com', PAYLINK_ADMIN_PASSWORD: 'somebody else now' }),
    );
    expect((await login('first@example.com', 'somebody else now')).statusCode).toBe(401);
    expect((await login('first@example.com', 'the first admin password')).statusCode).toBe(200);
    const created = await t.ctx.db.query<{ email: string }>(
      `select details->>'email' as email from audit_event where action = 'staff.created' and details->>'by' = 'boot'`,
    );
    expect(created.rows.map((r) => r.email)).toEqual(expect.arrayContaining(['rescue@example.com']));
  });

  it('skips demo links with PAYLINK_DEMO_LINKS=false and writes no token file in production mode', async () => {
    const fresh = await createTestApp();
    try {
      const off = await runBootSeed(fresh.ctx.db, config({ PAYLINK_DEMO_LINKS: 'false' }));
      expect(off.demoLinks).toEqual([]);
      expect((await fresh.ctx.db.query('select 1 from link')).rowCount).toBe(0);
      const prodDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-prod-'));
      const prod = await runBootSeed(fresh.ctx.db, {
        ...config({ PAYLINK_DATA_DIR: prodDir }),
        mode: 'production',
        dataDir: prodDir,
      });
      expect(prod.adminTokenFile).toBeNull();
      expect(prod.demoLinks).toEqual([]);
      expect(prod.demoCoordinator).toBeNull();
      expect(fs.readdirSync(prodDir)).toEqual([]);
      fs.rmSync(prodDir, { recursive: true, force: true });
    } finally {
      await fresh.close();
    }
  });
});
