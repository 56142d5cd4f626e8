import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../app.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateGroup } from '../../http/rate-limits.js';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';

/** Issue 11, finding 5: an outer per-IP layer, stricter on sign-in, the phone lookup, vitals and staff sign-in. */
const apps: Awaited<ReturnType<typeof createTestApp>>[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});
async function app(env: Record<string, string>) {
  const t = await createTestApp(env);
  apps.push(t);
  return t;
}

describe('per-IP rate limits', () => {
  it('groups paths: sign-in, phone lookup, vitals, staff sign-in, everything else', () => {
    expect(rateGroup('POST', '/api/auth/sms/verify')).toBe('auth');
    expect(rateGroup('GET', '/api/patients/abc/notoken?c=p')).toBe('lookup');
    expect(rateGroup('POST', '/api/vitals')).toBe('vitals');
    expect(rateGroup('POST', '/api/admin/login')).toBe('staffLogin');
    expect(rateGroup('POST', '/api/console/auth/login')).toBe('staffLogin');
    expect(rateGroup('GET', '/api/admin/links')).toBe('default');
    expect(rateGroup('GET', '/assets/index-abc123.js')).toBe('static');
    expect(rateGroup('GET', '/locales/es/common.json?v=1')).toBe('static');
    expect(rateGroup('HEAD', '/favicon.ico')).toBe('static');
    // Pages (which may read the link), API calls and writes are not static files.
    expect(rateGroup('GET', '/auth')).toBe('default');
    expect(rateGroup('GET', '/api/config.json')).toBe('default');
    expect(rateGroup('POST', '/assets/x.js')).toBe('default');
  });

  it('static files have their own budget, apart from the pages and API', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-rl-static-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'a-0123abcd.js'), 'export {};');
    const t = await app({ RATE_LIMIT_DEFAULT_PER_MINUTE: '2', WEB_DIST_DIR: dir });
    const get = (url: string) => t.app.inject({ url, headers: apiHeaders(t.ctx), remoteAddress: '198.51.100.40' });
    expect((await get('/assets/a-0123abcd.js')).statusCode).toBe(200);
    expect((await get('/assets/a-0123abcd.js')).statusCode).toBe(200);
    expect((await get('/assets/a-0123abcd.js')).statusCode).toBe(429);
    expect((await get('/api/config')).statusCode).not.toBe(429);
    fs.rmSync(dir, { recursive: true, force: true });
    // On PostgreSQL the files' counts stay in the process: no shared counter row for them.
    const rows = await t.ctx.db.query(`select 1 from rate_limit_counter where key like 'static:%'`);
    expect(rows.rowCount).toBe(0);
  });

  it('sign-in: the limit is per address across links, answered in the auth error shape with Retry-After', async () => {
    const t = await app({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
    const ids = await Promise.all([0, 1, 2, 3].map(async () => (await seedLink(t.ctx)).link.id));
    const verify = (linkId: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sms/verify',
        headers: apiHeaders(t.ctx),
        payload: { linkId, code: '000000' },
        remoteAddress,
      });
    for (const id of ids.slice(0, 3)) expect((await verify(id, '198.51.100.1')).statusCode).not.toBe(429);
    const blocked = await verify(ids[3]!, '198.51.100.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe('auth/too-many-requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected; other groups are not affected.
    expect((await verify(ids[3]!, '198.51.100.2')).statusCode).not.toBe(429);
    const page = await t.app.inject({
      url: `/api/auth/options?linkId=${ids[0]}`,
      headers: apiHeaders(t.ctx),
      remoteAddress: '198.51.100.1',
    });
    expect(page.statusCode).toBe(429);
    const lookup = await t.app.inject({
      url: `/api/patients/${ids[0]}/notoken?c=p`,
      headers: apiHeaders(t.ctx),
      remoteAddress: '198.51.100.1',
    });
    expect(lookup.statusCode).toBe(200);
  });

  it('the phone lookup, vitals and staff sign-in have their own limits', async () => {
    const t = await app({
      RATE_LIMIT_LOOKUP_PER_MINUTE: '2',
      RATE_LIMIT_VITALS_PER_MINUTE: '2',
      RATE_LIMIT_STAFF_LOGIN_PER_MINUTE: '2',
    });
    const { link } = await seedLink(t.ctx);
    const codes = async (n: number, req: () => Promise<{ statusCode: number }>) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await req()).statusCode);
      return out;
    };
    const lookup = await codes(3, () =>
      t.app.inject({ url: `/api/patients/${link.id}/notoken?c=p`, headers: apiHeaders(t.ctx) }),
    );
    expect(lookup).toEqual([200, 200, 429]);
    const vitals = await codes(3, () =>
      t.app.inject({
        method: 'POST',
        url: '/api/vitals',
        headers: apiHeaders(t.ctx),
        payload: { name: 'LCP', value: 1, route: '/auth' },
      }),
    );
    expect(vitals).toEqual([204, 204, 429]);
    const login = await codes(3, () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { email: 'x@example.com', password: 'wrong' },
      }),
    );
    expect(login).toEqual([401, 401, 429]);
  });

  it('the phone lookup writes one audit row per link per hour, not one per call', async () => {
    const t = await app({});
    const { link } = await seedLink(t.ctx);
    for (let i = 0; i < 4; i++) {
      const r = await t.app.inject({ url: `/api/patients/${link.id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
      expect(r.statusCode).toBe(200);
    }
    const rows = await t.ctx.db.query(
      `select 1 from audit_event where link_id = $1 and action = 'patient.phone_lookup'`,
      [link.id],
    );
    expect(rows.rowCount).toBe(1);
  });

  it('the vitals table is capped (the oldest rows go)', async () => {
    const t = await app({ VITALS_MAX_ROWS: '100' });
    for (let i = 0; i < 105; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/vitals',
        headers: apiHeaders(t.ctx),
        payload: { name: 'LCP', value: i, route: '/auth' },
      });
      expect(r.statusCode).toBe(204);
    }
    const r = await t.ctx.db.query<{ n: number; min: number }>(
      'select count(*)::int as n, min(value)::int as min from web_vital',
    );
    expect(r.rows[0]).toEqual({ n: 100, min: 5 });
  });
});

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisUp(): Promise<boolean> {
  const r = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
const hasRedis = await redisUp();

describe.skipIf(!hasRedis)('with REDIS_URL, several processes share the limits', () => {
  let a: Awaited<ReturnType<typeof createTestApp>>;
  let b: typeof a;
  beforeAll(async () => {
    const prefix = `paylink-rl-test-${randomBytes(4).toString('hex')}:`;
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_AUTH_PER_MINUTE: '2' };
    a = await app(env);
    b = await app(env);
  }, 120_000);

  it('two app instances count one address together', async () => {
    const opts = (t: typeof a) =>
      t.app.inject({
        url: '/api/auth/options?linkId=aaaaaaaaaaaaaaaaaaaaaaaa',
        headers: apiHeaders(t.ctx),
        remoteAddress: '192.0.2.9',
      });
    expect((await opts(a)).statusCode).not.toBe(429);
    expect((await opts(b)).statusCode).not.toBe(429);
    expect((await opts(a)).statusCode).toBe(429);
    expect((await opts(b)).statusCode).toBe(429);
  });
});

/** Issue 26, Low: with DATABASE_URL and no Redis the limits were per process. They are kept in PostgreSQL now. */
describe.skipIf(!process.env.DATABASE_URL)('with DATABASE_URL and no REDIS_URL, processes share the limits', () => {
  it('two app instances on one database count one address together; a window that ended starts again', async () => {
    const a = await app({ RATE_LIMIT_AUTH_PER_MINUTE: '2' });
    const b = await buildApp({ ...a.ctx });
    try {
      const opts = (x: FastifyInstance) =>
        x.inject({
          url: '/api/auth/options?linkId=aaaaaaaaaaaaaaaaaaaaaaaa',
          headers: apiHeaders(a.ctx),
          remoteAddress: '192.0.2.77',
        });
      expect((await opts(a.app)).statusCode).not.toBe(429);
      expect((await opts(b)).statusCode).not.toBe(429);
      const third = await opts(a.app);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect((await opts(b)).statusCode).toBe(429);
      await a.ctx.db.query(`update rate_limit_counter set expires_at = now() - interval '1 second'`);
      expect((await opts(b)).statusCode).not.toBe(429);
    } finally {
      await b.close();
    }
  });
});
