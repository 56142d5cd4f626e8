import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { staffToken } from '../../seed/seed-staff.js';
import { apiHeaders } from '../../../test/support/context.js';
import {
  createLinkAtPaymentStep,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';

/** Issue 11, findings 3 and 6: control characters, never echoing database errors, caching and small leaks. */
let env: PaymentTestEnv;
let admin: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv();
  admin = { authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
});
afterAll(async () => env?.close());

const NUL = '\u0000';

describe('control characters are refused with a 400 naming the field (finding 3)', () => {
  it('admin link fields', async () => {
    const r = await env.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: admin,
      payload: { firstName: `Ana${NUL}`, lastName: 'Diaz', phone: '(555) 010-9999' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().fields).toHaveProperty('firstName');
    expect(r.json().message).toMatch(/firstName/);
  });

  it('staff name, with an escape sequence', async () => {
    const r = await env.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: admin,
      payload: { email: 'x@example.com', name: 'Eve\u001b[2J', password: 'a long enough password' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().fields).toHaveProperty('name');
  });

  it("the payment failure log's payload", async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const r = await env.app.inject({
      method: 'POST',
      url: `/api/linkpaymenthistory/${link.linkId}/log`,
      headers: link.headers,
      payload: { linkStepId: link.paymentStepId, payload: `{"kind":"declined${NUL}"}` },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().fields).toHaveProperty('payload');
  });

  it("the dev outbox's ?to=", async () => {
    const r = await env.app.inject({ method: 'GET', url: '/api/dev/outbox?to=%00', remoteAddress: '127.0.0.1' });
    expect(r.statusCode).toBe(400);
    expect(r.json().fields).toHaveProperty('to');
  });

  it('the sandbox gateway: a NUL token is refused and no database error is echoed', async () => {
    const r = await fetch(`${env.gatewayOrigin}/hosted-payments/efs_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ssl_txn_auth_token=%00',
    });
    const text = await r.text();
    expect(r.status).toBe(400);
    expect(text).not.toMatch(/0x00|UTF8|byte sequence|postgres|sql/i);
  });
});

describe('headers and small leaks (finding 6)', () => {
  it('JSON answers with patient or staff data are Cache-Control: no-store', async () => {
    const { link } = await seedLink(env.ctx);
    const r = await env.app.inject({ method: 'GET', url: `/api/admin/links/${link.id}`, headers: admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const me = await env.app.inject({ method: 'GET', url: '/api/admin/me', headers: admin });
    expect(me.headers['cache-control']).toBe('no-store');
    const p = await createLinkAtPaymentStep(env.ctx);
    const info = await env.app.inject({
      method: 'GET',
      url: `/api/patients/patientinfo/${p.linkId}`,
      headers: p.headers,
    });
    expect(info.statusCode).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
  });

  it('admin routes check the token before the body (401 before 400)', async () => {
    const r = await env.app.inject({ method: 'POST', url: '/api/admin/links', payload: { nonsense: true } });
    expect(r.statusCode).toBe(401);
    const s = await env.app.inject({ method: 'POST', url: '/api/admin/staff', payload: { email: 'nope' } });
    expect(s.statusCode).toBe(401);
  });

  it('a patient token with a non-UUID sid is 401, not 500', async () => {
    const { link } = await seedLink(env.ctx);
    const token = await new SignJWT({ sid: "not-a-uuid' or 1=1" })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('paylink')
      .setAudience('paylink-patient')
      .setSubject(link.id)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(env.ctx.sessionKeys.secret);
    const r = await env.app.inject({
      method: 'GET',
      url: `/api/patients/patientinfo/${link.id}`,
      headers: apiHeaders(env.ctx, token),
    });
    expect(r.statusCode).toBe(401);
  });

  it('free-text fields are scrubbed of card numbers before they are stored', async () => {
    const r = await env.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: admin,
      payload: {
        firstName: 'Ana',
        lastName: 'Diaz',
        phone: '(555) 010-9999',
        procedureDescription: 'Deposit, card 4111 1111 1111 1111 on file',
        address: '1 Main St 4111-1111-1111-1111',
        payorName: 'Juan 4111111111111111',
      },
    });
    expect(r.statusCode).toBe(201);
    const row = await env.ctx.db.query<Record<string, string>>(
      'select procedure_description, address, payor_name from link where id = $1',
      [r.json().id],
    );
    const stored = JSON.stringify(row.rows[0]);
    expect(stored.replace(/\D/g, ' ')).not.toMatch(/\d{5,}/);
    expect(stored).toContain('1111');
    expect(row.rows[0]!.procedure_description).toContain('Deposit, card');
  });

  it('the sandbox gateway sends the same security headers as the app', async () => {
    const r = await fetch(`${env.gatewayOrigin}/hosted-payments/Checkout.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('strict-transport-security')).toBeTruthy();
    expect(r.headers.get('referrer-policy')).toBeTruthy();
    expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors/);
    expect(r.headers.get('x-powered-by')).toBeNull();
  });
});

describe('the sandbox outbox stays on this machine (finding 1)', () => {
  it('answers loopback clients, refuses others, and accepts a staff token from anywhere', async () => {
    const local = await env.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    const v6 = await env.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '::1' });
    expect(v6.statusCode).toBe(200);
    for (const url of ['/api/dev/outbox', '/dev/outbox']) {
      const remote = await env.app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7' });
      expect(remote.statusCode).toBe(403);
      expect(remote.body).not.toMatch(/\d{6}/);
    }
    const spoofed = await env.app.inject({
      method: 'GET',
      url: '/api/dev/outbox',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(spoofed.statusCode).toBe(403);
    const staff = await env.app.inject({
      method: 'GET',
      url: '/api/dev/outbox',
      remoteAddress: '203.0.113.7',
      headers: admin,
    });
    expect(staff.statusCode).toBe(200);
  });
});
