import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { staffToken } from '../../seed/seed-staff.js';
import { apiHeaders, createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { snapshotLinkData } from '../../../test/support/links.js';
import { createStaffUser } from './create-staff-user.js';
import { SYSTEM_ACTOR } from '../../lib/audit.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://pay.example.com' });
  adminAuth = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST', url: string, payload?: unknown, headers = adminAuth) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

describe('staff sign-in and tokens', () => {
  beforeAll(async () => {
    await t.ctx.db.transaction((tx) =>
      createStaffUser({
        tx,
        actor: SYSTEM_ACTOR,
        email: 'Coord@Example.com',
        name: 'Coordinator',
        password: 'correct horse battery',
        role: 'coordinator',
      }),
    );
  });

  it('signs in with e-mail and password and answers a working token; the stored hash is scrypt', async () => {
    const r = await api(
      'POST',
      '/api/admin/login',
      { email: 'coord@example.com', password: 'correct horse battery' },
      {},
    );
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.user).toMatchObject({ email: 'coord@example.com', role: 'coordinator' });
    expect(body.token).toMatch(/^plk_/);
    const me = await api('GET', '/api/admin/me', undefined, { authorization: `Bearer ${body.token}` });
    expect(me.json().email).toBe('coord@example.com');
    const stored = await t.ctx.db.query<{ password_hash: string; token_hash: string }>(
      `select u.password_hash, t.token_hash from staff_user u join staff_token t on t.staff_user_id = u.id
       where u.email = 'coord@example.com'`,
    );
    expect(stored.rows[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(stored.rows[0]!.password_hash).not.toContain('correct horse');
    expect(stored.rows[0]!.token_hash).not.toBe(body.token);
  });

  it('refuses a wrong password (401, audited); 10 wrong passwords slow the next try down but never lock it out', async () => {
    // Was: 10 failures locked the right password out for 15 minutes (anyone could keep a coordinator out).
    const waitOut = (s: number) =>
      t.ctx.db.query('update staff_sign_in_failure set at = at - make_interval(secs => $1)', [s]);
    for (let i = 0; i < 10; i++) {
      let r = await api('POST', '/api/admin/login', { email: 'coord@example.com', password: `wrong${i}` }, {});
      if (r.statusCode === 429) {
        expect(r.json().error).toBe('too_many_attempts');
        await waitOut(r.json().retryAfterSeconds);
        r = await api('POST', '/api/admin/login', { email: 'coord@example.com', password: `wrong${i}` }, {});
      }
      expect(r.statusCode).toBe(401);
      expect(r.json().error).toBe('invalid_credentials');
    }
    const failed = await t.ctx.db.query(`select 1 from audit_event where action = 'staff.login_failed'`);
    expect(failed.rowCount).toBe(10);
    const now = await api(
      'POST',
      '/api/admin/login',
      { email: 'coord@example.com', password: 'correct horse battery' },
      {},
    );
    expect(now.statusCode).toBe(429);
    expect(now.json().retryAfterSeconds).toBeLessThanOrEqual(300);
    await waitOut(now.json().retryAfterSeconds);
    const ok = await api(
      'POST',
      '/api/admin/login',
      { email: 'coord@example.com', password: 'correct horse battery' },
      {},
    );
    expect(ok.statusCode).toBe(200);
    await waitOut(3600);
  });

  it('refuses missing, unknown and patient tokens, and coordinators on admin-only routes', async () => {
    expect((await api('GET', '/api/admin/links', undefined, {})).statusCode).toBe(401);
    expect((await api('GET', '/api/admin/links', undefined, { authorization: 'Bearer plk_nope' })).statusCode).toBe(
      401,
    );
    const { link } = await seedLink(t.ctx);
    const patient = await mintPatientToken(t.ctx, link.id);
    expect((await api('GET', '/api/admin/links', undefined, { authorization: `Bearer ${patient}` })).statusCode).toBe(
      401,
    );
    const login = await api(
      'POST',
      '/api/admin/login',
      { email: 'coord@example.com', password: 'correct horse battery' },
      {},
    );
    const coord = { authorization: `Bearer ${login.json().token}` };
    expect((await api('GET', '/api/admin/staff', undefined, coord)).statusCode).toBe(403);
    expect((await api('GET', '/api/admin/links', undefined, coord)).statusCode).toBe(200);
  });

  it('lets an admin create staff users, once per e-mail', async () => {
    const body = { email: 'new@example.com', password: 'long enough password', role: 'coordinator' };
    expect((await api('POST', '/api/admin/staff', body)).statusCode).toBe(201);
    const again = await api('POST', '/api/admin/staff', body);
    expect(again.statusCode).toBe(409);
    const short = await api('POST', '/api/admin/staff', { ...body, email: 'x@example.com', password: 'short' });
    expect(short.statusCode).toBe(400);
  });
});

describe('links', () => {
  const full = {
    firstName: 'Ana',
    lastName: 'Diaz',
    address: '1 Main St',
    city: 'Austin',
    state: 'TX',
    zipCode: '78701',
    phone: '512-555-0147',
    email: 'Ana@Example.com',
    payorName: 'Luis Diaz',
    payorEmail: 'luis@example.com',
    isPaymentLinkLocked: true,
    signInMethod: 'email',
    language: 'es',
    expiresIn: '3d',
    procedureDescription: 'Rhinoplasty',
  };

  it('creates a link with every field and answers {id, url}', async () => {
    const r = await api('POST', '/api/admin/links', full);
    expect(r.statusCode).toBe(201);
    const { id, url, expiresAt } = r.json();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(url).toBe(`https://pay.example.com/auth?id=${id}`);
    const days = (new Date(expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);
    const row = await t.ctx.db.query<Record<string, unknown>>('select * from link where id = $1', [id]);
    expect(row.rows[0]).toMatchObject({
      first_name: 'Ana',
      phone: '+15125550147',
      email: 'ana@example.com',
      payor_name: 'Luis Diaz',
      is_payment_link_locked: true,
      sign_in_method: 'email',
      language: 'es',
      procedure_description: 'Rhinoplasty',
      status: 'active',
    });
    expect(row.rows[0]!.created_by).toBeTruthy();
  });

  it('defaults to 14 days and sms when a phone is given', async () => {
    const r = await api('POST', '/api/admin/links', { firstName: 'A', lastName: 'B', phone: '(555) 010-1111' });
    expect(r.statusCode).toBe(201);
    const row = await t.ctx.db.query<{ sign_in_method: string; days: number }>(
      `select sign_in_method, extract(epoch from expires_at - created_at)::int / 86400 as days from link where id = $1`,
      [r.json().id],
    );
    expect(row.rows[0]).toEqual({ sign_in_method: 'sms', days: 14 });
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const before = await snapshotLinkData(t.ctx.db);
    const bad = [
      { ...full, signInMethod: 'sms', phone: '' },
      { ...full, email: 'not-an-email' },
      { ...full, phone: '12' },
      { ...full, zipCode: 'ABCDE' },
      { ...full, expiresIn: '3w' },
      { ...full, firstName: '' },
      { ...full, language: 'fr' },
      { ...full, isPaymentLinkLocked: 'yes' },
      { ...full, nickname: 'x' },
      { lastName: 'B', phone: '5550101111' },
    ];
    for (const b of bad) {
      const r = await api('POST', '/api/admin/links', b);
      expect(r.statusCode, JSON.stringify(b)).toBe(400);
      expect(r.json().fields).toBeTruthy();
    }
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it('lists by derived state with step progress; shows one link with its timeline', async () => {
    const { link } = await seedLink(t.ctx, { firstName: 'Progress' });
    const patient = apiHeaders(t.ctx, await mintPatientToken(t.ctx, link.id));
    await t.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${link.id}&paymentSourceId=2&paymentAmount=600`,
      headers: patient,
    });
    const list = await api('GET', '/api/admin/links?status=active&limit=500');
    expect(list.statusCode).toBe(200);
    const item = list.json().links.find((l: { id: string }) => l.id === link.id);
    expect(item).toMatchObject({
      status: 'active',
      progress: { completed: 1, total: 7, currentRoutePath: '/patientinvoicedetail' },
      payment: { amount: 600, paymentSourceId: 2, paymentTypeId: 1, status: 'chosen' },
    });
    const show = await api('GET', `/api/admin/links/${link.id}`);
    expect(show.statusCode).toBe(200);
    expect(show.json().steps).toHaveLength(7);
    expect(show.json().timeline.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['link.created', 'payment.choice_recorded', 'steps.created']),
    );
    expect((await api('GET', '/api/admin/links/AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await api('GET', '/api/admin/links?status=gone')).statusCode).toBe(400);
  });

  it('cancels (revoking sessions), expires now and extends; refuses changes to cancelled links', async () => {
    const { link } = await seedLink(t.ctx);
    const token = await mintPatientToken(t.ctx, link.id);
    const info = () => t.app.inject({ url: `/api/patients/patientinfo/${link.id}`, headers: apiHeaders(t.ctx, token) });
    const phone = () => t.app.inject({ url: `/api/patients/${link.id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
    expect((await info()).statusCode).toBe(200);

    const expired = await api('POST', `/api/admin/links/${link.id}/expire`);
    expect(expired.json().status).toBe('expired');
    expect((await phone()).body).toBe('Link Expired.');
    expect(
      (await api('GET', '/api/admin/links?status=expired&limit=500')).json().links.map((l: { id: string }) => l.id),
    ).toContain(link.id);
    expect((await api('POST', `/api/admin/links/${link.id}/expire`)).statusCode).toBe(409);

    const extended = await api('POST', `/api/admin/links/${link.id}/extend`, { days: 2 });
    expect(extended.json().status).toBe('active');
    expect((await info()).statusCode).toBe(200);
    expect((await api('POST', `/api/admin/links/${link.id}/extend`, { days: 0 })).statusCode).toBe(400);

    const cancelled = await api('POST', `/api/admin/links/${link.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect((await info()).statusCode).toBe(401);
    expect((await phone()).body).toBe('Link has been Cancelled.');
    const again = await api('POST', `/api/admin/links/${link.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect((await api('POST', `/api/admin/links/${link.id}/extend`, { days: 2 })).statusCode).toBe(409);

    const audit = await t.ctx.db.query<{ action: string; actor_type: string }>(
      `select action, actor_type from audit_event where link_id = $1 and actor_type = 'staff' order by id`,
      [link.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['link.expired', 'link.extended', 'link.cancelled']);
  });

  it('lists payments in dollars', async () => {
    const { link } = await seedLink(t.ctx, { firstName: 'Payer' });
    await t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: apiHeaders(t.ctx, await mintPatientToken(t.ctx, link.id)),
      payload: { linkId: link.id, paymentTypeId: 2, paymentAmount: 1234 },
    });
    const r = await api('GET', '/api/admin/payments?status=chosen');
    expect(r.statusCode).toBe(200);
    expect(r.json().payments.find((p: { linkId: string }) => p.linkId === link.id)).toMatchObject({
      firstName: 'Payer',
      amount: 1234,
      paymentTypeId: 2,
      status: 'chosen',
      transactionId: null,
    });
  });
});
