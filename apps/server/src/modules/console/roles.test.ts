import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
const auth = async (email: string, role: 'admin' | 'coordinator' | 'billing') => ({
  authorization: `Bearer ${await staffToken(t.ctx.db, { email, role })}`,
});
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('staff roles on the admin API', () => {
  it('a billing user reads links and payments but cannot create or change links (403, nothing created)', async () => {
    const billing = await auth('billing@example.com', 'billing');
    const { link } = await seedLink(t.ctx);
    const before = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from link');
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: billing,
      payload: { firstName: 'A', lastName: 'B', phone: '5125550147' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toBe('forbidden');
    expect((await t.ctx.db.query<{ n: number }>('select count(*)::int as n from link')).rows[0]!.n).toBe(
      before.rows[0]!.n,
    );
    for (const action of ['cancel', 'expire']) {
      const r = await t.app.inject({ method: 'POST', url: `/api/admin/links/${link.id}/${action}`, headers: billing });
      expect(r.statusCode, action).toBe(403);
    }
    const extend = await t.app.inject({
      method: 'POST',
      url: `/api/admin/links/${link.id}/extend`,
      headers: billing,
      payload: { days: 2 },
    });
    expect(extend.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/links', headers: billing })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/admin/links/${link.id}`, headers: billing })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/payments', headers: billing })).statusCode).toBe(200);
  });

  it('a coordinator creates links but cannot manage staff (403)', async () => {
    const coord = await auth('coord@example.com', 'coordinator');
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: coord,
      payload: { firstName: 'A', lastName: 'B', phone: '5125550147' },
    });
    expect(create.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/api/admin/staff', headers: coord })).statusCode).toBe(403);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: coord,
      payload: { email: 'x@example.com', password: 'long enough password', role: 'admin' },
    });
    expect(add.statusCode).toBe(403);
  });

  it('an admin creates a billing user', async () => {
    const admin = await auth('admin@example.com', 'admin');
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: admin,
      payload: { email: 'billing2@example.com', password: 'long enough password', role: 'billing' },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json().role).toBe('billing');
  });
  it('every role reads the coordinators filter list (names only); deactivated staff without links are left out', async () => {
    const billing = await auth('billing-list@example.com', 'billing');
    const coord = await auth('coord-list@example.com', 'coordinator');
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: coord,
      payload: { firstName: 'A', lastName: 'B', phone: '5125550147' },
    });
    await staffToken(t.ctx.db, { email: 'gone@example.com', role: 'coordinator' });
    await t.ctx.db.query("update staff_user set disabled_at = now() where email = 'gone@example.com'");
    const r = await t.app.inject({ url: '/api/admin/coordinators', headers: billing });
    expect(r.statusCode).toBe(200);
    const list = r.json().coordinators as { id: string; name: string; email: string }[];
    const emails = list.map((c) => c.email);
    expect(emails).toContain('coord-list@example.com');
    expect(emails).not.toContain('billing-list@example.com');
    expect(emails).not.toContain('gone@example.com');
    expect(Object.keys(list[0]!).sort()).toEqual(['email', 'id', 'name']);
    expect((await t.app.inject({ url: '/api/admin/coordinators' })).statusCode).toBe(401);
  });
});
