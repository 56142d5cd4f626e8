import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { normaliseRoute, recordVital, recordVitals } from './record-vital.js';

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

  it("stores a page's metrics in one statement, in order, the cap applied to the batch", async () => {
    let statements = 0;
    const q = { query: (...a: Parameters<typeof t.ctx.db.query>) => (statements++, t.ctx.db.query(...a)) };
    const page = (v: number) =>
      (['TTFB', 'FCP', 'LCP'] as const).map((name, i) => ({ name, value: v + i, route: '/batch' }));
    expect(await recordVitals(q as typeof t.ctx.db, page(10), { maxRows: 4 })).toBe(true);
    expect(await recordVitals(q as typeof t.ctx.db, page(20), { maxRows: 4 })).toBe(true);
    expect(statements).toBe(2);
    const rows = await t.ctx.db.query<{ name: string; value: number }>(
      `select name, value from web_vital where route = '/batch' order by id`,
    );
    expect(rows.rows.map((r) => [r.name, Number(r.value)])).toEqual([
      ['LCP', 12],
      ['TTFB', 20],
      ['FCP', 21],
      ['LCP', 22],
    ]);
    await t.ctx.db.query(`delete from web_vital`);
  });

  it("takes a page's metrics as an array in one request; a batch with one bad metric stores nothing", async () => {
    const r = await post([
      { name: 'TTFB', value: 80, route: '/auth', navigationType: 'navigate' },
      { name: 'FCP', value: 900.5, rating: 'good', route: '/auth' },
      { name: 'CLS', value: 0.01, route: '/patientinfo?id=abc' },
    ]);
    expect(r.statusCode).toBe(204);
    const rows = await t.ctx.db.query<{ route: string; name: string }>('select route, name from web_vital order by id');
    expect(rows.rows).toEqual([
      { route: '/auth', name: 'TTFB' },
      { route: '/auth', name: 'FCP' },
      { route: '/patientinfo', name: 'CLS' },
    ]);
    const metric = { name: 'LCP', value: 1, route: '/auth' };
    for (const bad of [
      [],
      [metric, { ...metric, route: 'https://evil.example/' }],
      [metric, { ...metric, name: 'FID' }],
      [metric, { ...metric, linkId: 'x' }],
      Array.from({ length: 11 }, () => metric),
      [[metric]],
    ]) {
      const res = await post(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
    }
    expect((await t.ctx.db.query('select 1 from web_vital')).rowCount).toBe(3);
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
