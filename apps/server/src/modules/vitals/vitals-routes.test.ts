import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { normaliseRoute, recordVital } from './record-vital.js';

describe('POST /api/vitals', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const post = (payload: unknown, headers = apiHeaders(t.ctx)) =>
    t.app.inject({ method: 'POST', url: '/api/vitals', headers, payload: payload as object });

  it("keeps the newest maxRows, in the insert's own statement", async () => {
    for (let i = 0; i < 5; i++)
      await recordVital(t.ctx.db, { name: 'INP', value: 100 + i, route: '/cap' }, { maxRows: 3 });
    const rows = await t.ctx.db.query<{ value: number }>(
      `select value from web_vital where route = '/cap' order by id`,
    );
    expect(rows.rows.map((r) => Number(r.value))).toEqual([102, 103, 104]);
    await t.ctx.db.query(`delete from web_vital`);
  });

  it('stores a metric per route, without the query string', async () => {
    const r = await post({ name: 'LCP', value: 1234.5, rating: 'good', route: '/auth', navigationType: 'navigate' });
    expect(r.statusCode).toBe(204);
    await post({ name: 'CLS', value: 0.02, route: '/patientinfo?id=abc' });
    const rows = await t.ctx.db.query<{ route: string; name: string; value: number; rating: string | null }>(
      'select route, name, value, rating from web_vital order by id',
    );
    expect(rows.rows).toEqual([
      { route: '/auth', name: 'LCP', value: 1234.5, rating: 'good' },
      { route: '/patientinfo', name: 'CLS', value: 0.02, rating: null },
    ]);
  });

  it('needs the API key', async () => {
    const r = await post({ name: 'LCP', value: 1, route: '/auth' }, {} as never);
    expect(r.statusCode).toBe(401);
  });

  it('refuses unknown metrics, negative values, extra fields and non-path routes with a 400, storing nothing', async () => {
    const before = (await t.ctx.db.query<{ n: string }>('select count(*)::text as n from web_vital')).rows[0]!.n;
    for (const bad of [
      { name: 'FID', value: 1, route: '/auth' },
      { name: 'LCP', value: -1, route: '/auth' },
      { name: 'LCP', value: 1, route: '/auth', linkId: 'x' },
      { name: 'LCP', value: 1, route: 'https://evil.example/' },
      { name: 'LCP', value: 1, route: '/<script>' },
    ]) {
      const r = await post(bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json()).toMatchObject({ error: 'invalid_request' });
    }
    const after = (await t.ctx.db.query<{ n: string }>('select count(*)::text as n from web_vital')).rows[0]!.n;
    expect(after).toBe(before);
  });
});

describe('normaliseRoute', () => {
  it('keeps plain paths and drops query, hash and trailing slashes', () => {
    expect(normaliseRoute('/')).toBe('/');
    expect(normaliseRoute('/paymentauthorization/')).toBe('/paymentauthorization');
    expect(normaliseRoute('/auth?id=abc#x')).toBe('/auth');
    expect(normaliseRoute('auth')).toBeNull();
    expect(normaliseRoute('/a b')).toBeNull();
  });
});
