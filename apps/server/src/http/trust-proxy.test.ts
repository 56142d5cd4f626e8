import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp } from '../../test/support/context.js';

/** Issue 26, Medium: TRUST_PROXY=true let a client choose its address (the leftmost X-Forwarded-For entry). */
const apps: Awaited<ReturnType<typeof createTestApp>>[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});
async function app(env: Record<string, string>) {
  const t = await createTestApp(env);
  apps.push(t);
  return t;
}

describe('TRUST_PROXY takes a hop count or the proxies’ addresses', () => {
  it('refuses a bare true at boot with a message that says what to write', () => {
    for (const v of ['true', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: v })).toThrow(/TRUST_PROXY.*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8/s);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.300' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });

  it('reads a hop count, a list of addresses and ranges, or nothing', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback']);
    for (const v of [undefined, '', 'false', '0', 'no']) expect(loadConfig({ TRUST_PROXY: v }).TRUST_PROXY).toBe(false);
  });

  it('behind one proxy that appends, a client-written first hop changes neither its address nor its limit', async () => {
    const t = await app({ TRUST_PROXY: '1', RATE_LIMIT_STAFF_LOGIN_PER_MINUTE: '2' });
    const outbox = await t.app.inject({
      url: '/api/dev/outbox',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
    });
    expect(outbox.statusCode).toBe(403);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        remoteAddress: '10.0.0.5',
        headers: { 'x-forwarded-for': `198.18.${i}.1, 203.0.113.9` },
        payload: { email: 'nobody@example.com', password: 'x' },
      });
      codes.push(r.statusCode);
    }
    expect(codes[2]).toBe(429);
  });

  it('the sandbox outbox never trusts a forwarded loopback address, even from a trusted proxy', async () => {
    const t = await app({ TRUST_PROXY: '127.0.0.1' });
    const forwarded = await t.app.inject({
      url: '/api/dev/outbox',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forwarded.statusCode).toBe(403);
    const direct = await t.app.inject({ url: '/api/dev/outbox', remoteAddress: '127.0.0.1' });
    expect(direct.statusCode).toBe(200);
  });
});
