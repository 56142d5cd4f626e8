import { CONSOLE_CSRF_HEADER } from '@paylink/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureStaffUser } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { STAFF_COOKIE } from './staff-sessions.js';

/**
 * Issue 25: the console opened at another address than PUBLIC_URL. Without PUBLIC_URL (sandbox: it defaults to
 * http://localhost:PORT) the console works at whatever address of this server the browser used — 127.0.0.1, the
 * machine's address on the practice network — and a cross-site origin is still refused. With PUBLIC_URL set, the
 * sign-in says where the console is served instead of signing in to a console whose every change would be refused.
 */
type TestApp = Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct horse battery staple';
const EMAIL = 'coord@example.com';
const LINK = { firstName: 'Ana', lastName: 'Ruiz', phone: '5125550147' };

async function appWith(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(env);
  await ensureStaffUser(t.ctx.db, { email: EMAIL, role: 'coordinator', password: PASSWORD, name: 'Coord' });
  return t;
}

/** What a browser sends from a console page at `origin` (Host is the address typed; Origin the page's origin). */
const fromPage = (origin: string, extra: Record<string, string> = {}) => ({
  host: new URL(origin).host,
  origin,
  ...extra,
});

async function signIn(t: TestApp, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/session',
    headers,
    payload: { email: EMAIL, password: PASSWORD },
  });
}
const cookieOf = (r: Awaited<ReturnType<typeof signIn>>) => {
  const c = r.cookies.find((x) => x.name === STAFF_COOKIE);
  return c ? `${STAFF_COOKIE}=${c.value}` : '';
};
const createLink = (t: TestApp, cookie: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: { cookie, [CONSOLE_CSRF_HEADER]: '1', ...headers },
    payload: LINK,
  } satisfies InjectOptions);

describe('PUBLIC_URL not set (sandbox default http://localhost:8080)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith({ PORT: '8080' });
  });
  afterAll(async () => t.close());

  for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://192.168.1.20:8080']) {
    it(`signs in and creates a link from a console opened at ${origin}`, async () => {
      const r = await signIn(t, fromPage(origin));
      expect(r.statusCode).toBe(200);
      const created = await createLink(t, cookieOf(r), fromPage(origin));
      expect(created.statusCode, created.body).toBe(201);
    });
  }

  it('still refuses a change from a page of another site, whatever address the request was sent to', async () => {
    const cookie = cookieOf(await signIn(t, fromPage('http://127.0.0.1:8080')));
    for (const origin of ['https://evil.example', 'http://127.0.0.1:9999', 'https://127.0.0.1:8080', 'null']) {
      const r = await createLink(t, cookie, { host: '127.0.0.1:8080', origin });
      expect(r.statusCode, origin).toBe(403);
      expect(r.json().error, origin).toBe('csrf');
    }
    // Forwarded headers count only behind a trusted proxy (TRUST_PROXY): here they are anybody's.
    const forged = await createLink(t, cookie, {
      host: '127.0.0.1:8080',
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(forged.statusCode).toBe(403);
  });

  it('refuses a sign-in posted from a page of another site (login CSRF)', async () => {
    const r = await signIn(t, { host: '127.0.0.1:8080', origin: 'https://evil.example' });
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toBe('csrf');
    expect(cookieOf(r)).toBe('');
  });
});

describe('PUBLIC_URL not set, behind a trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith({ PORT: '8080', TRUST_PROXY: '1' });
  });
  afterAll(async () => t.close());

  it("takes the request's own origin from the proxy's X-Forwarded-Host and -Proto", async () => {
    const proxied = { host: '127.0.0.1:8080', 'x-forwarded-host': 'paylink.lan', 'x-forwarded-proto': 'https' };
    const r = await signIn(t, { ...proxied, origin: 'https://paylink.lan' });
    expect(r.statusCode).toBe(200);
    const ok = await createLink(t, cookieOf(r), { ...proxied, origin: 'https://paylink.lan' });
    expect(ok.statusCode).toBe(201);
    const foreign = await createLink(t, cookieOf(r), { ...proxied, origin: 'http://127.0.0.1:8080' });
    expect(foreign.json().error).toBe('csrf');
  });
});

describe('PUBLIC_URL set (https://pay.example.com)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith({ PORT: '8080', PUBLIC_URL: 'https://pay.example.com' });
  });
  afterAll(async () => t.close());

  it('signs in and creates a link from the console at PUBLIC_URL, and from a client that sends no Origin', async () => {
    const r = await signIn(t, fromPage('https://pay.example.com', { host: '127.0.0.1:8080' }));
    expect(r.statusCode).toBe(200);
    const created = await createLink(t, cookieOf(r), { host: '127.0.0.1:8080', origin: 'https://pay.example.com' });
    expect(created.statusCode).toBe(201);
    expect((await signIn(t, { host: '127.0.0.1:8080' })).statusCode).toBe(200);
  });

  it('answers a sign-in at another address of this server with where the console is served, and no session', async () => {
    for (const origin of ['http://192.168.1.20:8080', 'http://127.0.0.1:8080']) {
      const r = await signIn(t, fromPage(origin));
      expect(r.statusCode, origin).toBe(403);
      expect(r.json(), origin).toEqual({
        error: 'wrong_console_address',
        message: 'This console is served at https://pay.example.com/console; open it there.',
        details: { consoleUrl: 'https://pay.example.com/console' },
      });
      expect(cookieOf(r)).toBe('');
    }
    // Not a failed password: no sign-in delay is recorded for it.
    const failures = await t.ctx.db.query<{ n: number }>('select count(*)::int as n from staff_sign_in_failure');
    expect(failures.rows[0]!.n).toBe(0);
  });

  it('says the same to a session used from another address, and still refuses another site', async () => {
    const cookie = cookieOf(await signIn(t, fromPage('https://pay.example.com')));
    const elsewhere = await createLink(t, cookie, fromPage('http://192.168.1.20:8080'));
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error).toBe('wrong_console_address');
    const foreign = await createLink(t, cookie, { host: '192.168.1.20:8080', origin: 'https://evil.example' });
    expect(foreign.json().error).toBe('csrf');
    const login = await signIn(t, { host: 'pay.example.com', origin: 'https://evil.example' });
    expect(login.json().error).toBe('csrf');
  });
});
