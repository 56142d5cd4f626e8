import type { FastifyInstance, InjectOptions } from 'fastify';
import {
  CARD_ON_FILE_AGREEMENT_VERSION,
  PaymentSource,
  PaymentType,
  StepRoutes,
  type StaffRole,
} from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { databaseFingerprint } from '../../../test/support/fuzz.js';
import { fixture, multipartFile, seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';
import { prepareStepDocuments } from '../signing/prepare-step-documents.js';
import { buildSignServer } from '../signing/sign-server.js';

/**
 * Issue 11: the IDOR matrix. Every route of the app and of the signing service is classified below by who may call
 * it; the test walks the servers' own route inventories, so a new route that is not classified here fails. Then:
 * every patient route is called with another link's session (401/403/404, no data), every staff route without a
 * token, with an expired one and with each role that may not use it (401/403), the webhook routes unsigned, the dev
 * outbox from another machine, and every signing URL with an unknown token or another link's file. Nothing may
 * change in the patient tables.
 */
type Access =
  /** Open by design: health, docs, the built apps, staff sign-in (credentials in the body). */
  | { access: 'public'; why: string }
  /** The product API key only, before sign-in (spec section 7); answers nothing beyond what the spec allows. */
  | { access: 'apiKey' }
  /** The API key and a link's session; `bind` says where the link id comes from. */
  | { access: 'patient'; bind: 'path' | 'query' | 'body' | 'session' }
  /** A staff token or console session, and one of these roles (`any`: every staff role). */
  | { access: 'staff'; roles: 'any' | readonly StaffRole[] }
  /** Twilio's X-Twilio-Signature. */
  | { access: 'twilio' }
  /** Loopback clients or a staff token only (sandbox sign-in codes). */
  | { access: 'dev' }
  /** A signed token in the URL is the capability (unsubscribe links, signing pages). */
  | { access: 'token' };

const ANY = 'any' as const;
const ADMIN = ['admin'] as const;
const LINKS = ['admin', 'coordinator'] as const;
const MONEY = ['admin', 'billing'] as const;

export const APP_ROUTES: Record<string, Access> = {
  'GET /healthz': { access: 'public', why: 'liveness for the load balancer; no data' },
  'GET /readyz': { access: 'public', why: 'readiness; no data' },
  'GET /api/docs': { access: 'public', why: 'the OpenAPI document practices integrate with' },
  'GET /console': { access: 'public', why: 'the console shell (signs in through the API)' },
  'GET /console/*': { access: 'public', why: 'the console shell and its hashed assets' },
  'OPTIONS *': { access: 'public', why: 'CORS preflight' },
  'POST /api/admin/login': { access: 'public', why: 'staff sign-in for the CLI: credentials in the body' },
  'POST /api/admin/session': { access: 'public', why: 'console sign-in: credentials in the body' },
  'POST /api/admin/password-reset': {
    access: 'public',
    why: 'forgot password: the same answer for every address; the link goes to the account’s e-mail',
  },
  'POST /api/admin/password-reset/complete': {
    access: 'public',
    why: 'the e-mailed reset link: its single-use token in the body',
  },
  'POST /api/csp-report': { access: 'public', why: 'browsers send CSP violation reports without credentials' },

  'GET /api/config': { access: 'apiKey' },
  'POST /api/vitals': { access: 'apiKey' },
  'GET /api/auth/options': { access: 'apiKey' },
  'POST /api/auth/sms/send': { access: 'apiKey' },
  'POST /api/auth/sms/verify': { access: 'apiKey' },
  'POST /api/auth/email/send': { access: 'apiKey' },
  'POST /api/auth/email/verify': { access: 'apiKey' },
  'GET /api/patients/:linkId/notoken': { access: 'apiKey' },

  'GET /api/patients/patientinfo/:linkId': { access: 'patient', bind: 'path' },
  'GET /api/linksteps/script/:linkId/check': { access: 'patient', bind: 'path' },
  'POST /api/linkpaymenthistory/:linkId/log': { access: 'patient', bind: 'path' },
  'PUT /api/linksteps': { access: 'patient', bind: 'query' },
  'POST /api/linksteps/script': { access: 'patient', bind: 'query' },
  'POST /api/linkpaymenthistory': { access: 'patient', bind: 'body' },
  'PUT /api/linkpaymenthistory': { access: 'patient', bind: 'body' },
  'POST /api/converge': { access: 'patient', bind: 'session' },
  'GET /api/converge/state': { access: 'patient', bind: 'session' },
  'GET /api/plans/:linkId': { access: 'patient', bind: 'path' },
  'POST /api/plans/:linkId/agreement': { access: 'patient', bind: 'path' },
  'POST /api/plans/:linkId/card/session': { access: 'patient', bind: 'path' },
  'POST /api/plans/:linkId/card': { access: 'patient', bind: 'path' },
  'POST /api/auth/session/refresh': { access: 'patient', bind: 'session' },
  'POST /api/auth/logout': { access: 'patient', bind: 'session' },

  'GET /api/admin/me': { access: 'staff', roles: ANY },
  'GET /api/admin/staff': { access: 'staff', roles: ADMIN },
  'POST /api/admin/staff': { access: 'staff', roles: ADMIN },
  'PATCH /api/admin/staff/:id': { access: 'staff', roles: ADMIN },
  'POST /api/admin/staff/:id/reset-2fa': { access: 'staff', roles: ADMIN },
  'POST /api/admin/staff/:id/reset-password': { access: 'staff', roles: ADMIN },
  'GET /api/admin/settings': { access: 'staff', roles: ANY },
  'PUT /api/admin/settings': { access: 'staff', roles: ADMIN },
  'GET /api/admin/settings/plans': { access: 'staff', roles: ANY },
  'PUT /api/admin/settings/plans': { access: 'staff', roles: ADMIN },
  'GET /api/admin/settings/contracts': { access: 'staff', roles: ADMIN },
  'GET /api/admin/settings/contracts/:lang/pdf': { access: 'staff', roles: ADMIN },
  'PUT /api/admin/settings/contracts/:lang': { access: 'staff', roles: ADMIN },
  'DELETE /api/admin/settings/contracts/:lang': { access: 'staff', roles: ADMIN },
  'POST /api/admin/links': { access: 'staff', roles: LINKS },
  'GET /api/admin/links': { access: 'staff', roles: ANY },
  'GET /api/admin/links/:id': { access: 'staff', roles: ANY },
  'GET /api/admin/links/:id/detail': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/cancel': { access: 'staff', roles: LINKS },
  'POST /api/admin/links/:id/expire': { access: 'staff', roles: LINKS },
  'POST /api/admin/links/:id/extend': { access: 'staff', roles: LINKS },
  'POST /api/admin/links/:id/send': { access: 'staff', roles: LINKS },
  'POST /api/admin/links/:id/reminders': { access: 'staff', roles: LINKS },
  'GET /api/admin/links/:id/messages': { access: 'staff', roles: ANY },
  'GET /api/admin/links/:id/documents': { access: 'staff', roles: ANY },
  'GET /api/admin/documents/:submissionId/pdf': { access: 'staff', roles: ANY },
  'GET /api/admin/links/:id/evidence.pdf': { access: 'staff', roles: MONEY },
  'POST /api/admin/links/:id/refund': { access: 'staff', roles: MONEY },
  'POST /api/admin/links/:id/receipt': { access: 'staff', roles: ANY },
  'GET /api/admin/links/:id/refunds': { access: 'staff', roles: MONEY },
  'GET /api/admin/links/:id/refund-options': { access: 'staff', roles: MONEY },
  'POST /api/admin/payments/attention/:attemptId/void': { access: 'staff', roles: MONEY },
  'GET /api/admin/payments/attention': { access: 'staff', roles: MONEY },
  'GET /api/admin/payments': { access: 'staff', roles: ANY },
  'GET /api/admin/payments/report': { access: 'staff', roles: ANY },
  'GET /api/admin/payments/export': { access: 'staff', roles: ANY },
  'GET /api/admin/exports/payments.csv': { access: 'staff', roles: MONEY },
  'GET /api/admin/exports/refunds.csv': { access: 'staff', roles: MONEY },
  'GET /api/admin/exports/links.csv': { access: 'staff', roles: MONEY },
  'GET /api/admin/board': { access: 'staff', roles: ANY },
  'GET /api/admin/board/changes': { access: 'staff', roles: ANY },
  'GET /api/admin/funnel': { access: 'staff', roles: ANY },
  'GET /api/admin/coordinators': { access: 'staff', roles: ANY },
  'POST /api/admin/webhooks': { access: 'staff', roles: ADMIN },
  'GET /api/admin/webhooks': { access: 'staff', roles: ADMIN },
  'DELETE /api/admin/webhooks/:id': { access: 'staff', roles: ADMIN },
  'POST /api/admin/webhooks/:id/rotate-secret': { access: 'staff', roles: ADMIN },
  'GET /api/admin/webhooks/:id/deliveries': { access: 'staff', roles: ADMIN },
  'POST /api/admin/webhooks/deliveries/:id/replay': { access: 'staff', roles: ADMIN },
  'GET /api/admin/messaging/opt-outs': { access: 'staff', roles: ANY },
  'GET /api/admin/messaging/reminder-plan': { access: 'staff', roles: ANY },
  'PUT /api/admin/messaging/reminder-plan': { access: 'staff', roles: ADMIN },
  'GET /api/admin/me/notifications': { access: 'staff', roles: ANY },
  'PUT /api/admin/me/notifications': { access: 'staff', roles: ANY },
  'GET /api/admin/session': { access: 'staff', roles: ANY },
  'DELETE /api/admin/session': { access: 'staff', roles: ANY },
  'POST /api/admin/session/sign-out-everywhere': { access: 'staff', roles: ANY },
  'GET /api/admin/me/2fa': { access: 'staff', roles: ANY },
  'POST /api/admin/me/password': { access: 'staff', roles: ANY },
  'POST /api/admin/me/2fa/setup': { access: 'staff', roles: ANY },
  'POST /api/admin/me/2fa/enable': { access: 'staff', roles: ANY },
  'POST /api/admin/me/2fa/recovery-codes': { access: 'staff', roles: ANY },
  'POST /api/admin/me/2fa/disable': { access: 'staff', roles: ANY },

  'GET /api/admin/compliance/scripts': { access: 'staff', roles: ADMIN },
  'GET /api/admin/compliance/csp-reports': { access: 'staff', roles: ADMIN },
  'GET /api/admin/compliance/tamper-checks': { access: 'staff', roles: ADMIN },
  'POST /api/admin/compliance/tamper-check': { access: 'staff', roles: ADMIN },
  'POST /api/admin/plans/run': { access: 'staff', roles: ADMIN },
  'GET /api/admin/plans/upcoming': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/plan/pause': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/plan/resume': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/plan/cancel': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/plan/installments/:n/reschedule': { access: 'staff', roles: ANY },
  'POST /api/admin/links/:id/plan/installments/:n/charge': { access: 'staff', roles: MONEY },
  'POST /api/admin/links/:id/plan/installments/:n/refund': { access: 'staff', roles: MONEY },

  'POST /api/webhooks/twilio/status': { access: 'twilio' },
  'POST /api/webhooks/twilio/sms': { access: 'twilio' },
  'GET /api/dev/outbox': { access: 'dev' },
  'GET /dev/outbox': { access: 'dev' },
  'GET /dev/outbox/:id': { access: 'dev' },
  'POST /api/dev/gateway/settle': { access: 'dev' },
  'GET /unsubscribe': { access: 'token' },
  'POST /unsubscribe': { access: 'token' },
};

export const SIGN_ROUTES: Record<string, Access> = {
  'GET /healthz': { access: 'public', why: 'liveness; no data' },
  'GET /favicon.ico': { access: 'public', why: 'empty icon' },
  'GET /assets/*': { access: 'public', why: "the signing pages' own scripts and styles" },
  'GET /s/:token': { access: 'token' },
  'GET /s/:token/document.pdf': { access: 'token' },
  'POST /s/:token/files': { access: 'token' },
  'GET /s/:token/files/:fileId': { access: 'token' },
  'POST /s/:token/complete': { access: 'token' },
};

const PATIENT_TABLES = [
  'link',
  'link_step',
  'payment',
  'payment_attempt',
  'submission',
  'submission_file',
  'refund',
  'payment_plan',
  'card_agreement',
  'stored_card',
];
const ROLES: StaffRole[] = ['admin', 'coordinator', 'billing'];

let t: Awaited<ReturnType<typeof createTestApp>>;
let sign: FastifyInstance;
let a: Awaited<ReturnType<typeof preparedLink>>;
let b: Awaited<ReturnType<typeof preparedLink>>;
let sessionB: string;
let tokens: Record<StaffRole, string>;
let expired: string;
let adminId: string;
let fileOfA: string;

/** A link with prepared documents (as the step list leaves them), one of its steps, and each document's token. */
async function preparedLink(firstName: string) {
  const seeded = await seedLinkWithSteps(t.ctx.db, { firstName });
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: seeded.linkId }));
  const rows = await t.ctx.db.query<{ id: number; route_path: string; document_url: string | null }>(
    'select id, route_path, document_url from link_step where link_id = $1 order by position',
    [seeded.linkId],
  );
  const byRoute = Object.fromEntries(rows.rows.map((r) => [r.route_path, r]));
  const sub = await t.ctx.db.query<{ id: string }>('select id from submission where link_id = $1 limit 1', [
    seeded.linkId,
  ]);
  return {
    linkId: seeded.linkId,
    stepId: rows.rows[0]!.id,
    submissionId: sub.rows[0]!.id,
    token: (route: string) => byRoute[route]!.document_url!.split('/s/')[1]!,
  };
}

/** A's data that must never appear in an answer to someone else. */
const leaksA = (body: string) => /Zenobia/.test(body);

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
/** The built apps' files (one route each once `npm run build` has run): public by nature, like `GET /console/*`. */
const isBuiltFile = (r: { method: string; url: string }) =>
  r.method === 'GET' && !r.url.startsWith('/api/') && !r.url.includes(':') && /\.[a-z0-9]+$/i.test(r.url);

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://pay.example.test', SIGN_ORIGIN: 'https://sign.example.test' });
  sign = await buildSignServer(t.ctx);
  await sign.ready();
  a = await preparedLink('Zenobia');
  b = await preparedLink('Bruno');
  sessionB = await mintPatientToken(t.ctx, b.linkId);
  tokens = {
    admin: await staffToken(t.ctx.db, { email: 'idor-admin@example.com', role: 'admin' }),
    coordinator: await staffToken(t.ctx.db, { email: 'idor-coord@example.com', role: 'coordinator' }),
    billing: await staffToken(t.ctx.db, { email: 'idor-billing@example.com', role: 'billing' }),
  };
  expired = await staffToken(t.ctx.db, { email: 'idor-expired@example.com', role: 'admin' });
  await t.ctx.db.query(
    `update staff_token set expires_at = now() - interval '1 minute'
     where staff_user_id = (select id from staff_user where email = 'idor-expired@example.com')`,
  );
  adminId = (await t.ctx.db.query<{ id: string }>(`select id from staff_user where email = 'idor-admin@example.com'`))
    .rows[0]!.id;
  const { body, contentType } = multipartFile('a.jpg', 'image/jpeg', fixture('id-front.jpg'));
  const up = await sign.inject({
    method: 'POST',
    url: `/s/${a.token(StepRoutes.patientId)}/files?side=front`,
    payload: body,
    headers: { 'content-type': contentType },
  });
  expect(up.statusCode).toBe(201);
  fileOfA = up.json().id as string;
}, 120_000);
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

/** A concrete URL for a route pattern, aimed at link A (or A's records). */
function urlFor(pattern: string): string {
  return pattern
    .replace(':linkId', a.linkId)
    .replace(':submissionId', a.submissionId)
    .replace(':lang', 'es')
    .replace(':n', '1')
    .replace('/staff/:id', `/staff/${adminId}`)
    .replace(':id', pattern.startsWith('/api/admin/links') ? a.linkId : crypto.randomUUID());
}

/** A request link A's owner could send; sent with B's session it must be refused. */
function patientRequest(method: string, pattern: string): InjectOptions {
  const base = { method: method as InjectOptions['method'], headers: { 'x-api-key': t.ctx.config.apiKey } };
  switch (`${method} ${pattern}`) {
    case 'PUT /api/linksteps':
      return { ...base, url: `/api/linksteps?linkId=${a.linkId}&linkStepId=${a.stepId}&LinkStepStatusId=2` };
    case 'POST /api/linksteps/script':
      return {
        ...base,
        url: `/api/linksteps/script?linkId=${a.linkId}&paymentTypeId=${PaymentType.Deposit}&paymentSourceId=${PaymentSource.Patient}&paymentAmount=500`,
      };
    case 'POST /api/linkpaymenthistory':
      return {
        ...base,
        url: pattern,
        payload: { linkId: a.linkId, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 },
      };
    case 'PUT /api/linkpaymenthistory':
      return { ...base, url: pattern, payload: { linkId: a.linkId, transactionId: 'TXN-1' } };
    case 'POST /api/converge':
      return { ...base, url: '/api/converge?amount=500' };
    case 'POST /api/plans/:linkId/agreement':
      return { ...base, url: urlFor(pattern), payload: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true } };
    case 'POST /api/plans/:linkId/card':
      return { ...base, url: urlFor(pattern), payload: { updateId: 'u'.repeat(24), transactionId: 'TXN-1' } };
    case 'POST /api/linkpaymenthistory/:linkId/log':
      return { ...base, url: urlFor(pattern), payload: { linkStepId: a.stepId, payload: '{"kind":"declined"}' } };
    default:
      return { ...base, url: urlFor(pattern) };
  }
}

describe('IDOR matrix (issue 11)', () => {
  it('classifies every route of the app and of the signing service (a new route must be added here)', () => {
    const app = [...new Set(t.app.routeInventory.filter((r) => !isBuiltFile(r)).map(key))].sort();
    const signing = [...new Set(sign.routeInventory.map(key))].sort();
    expect(
      app.filter((r) => !APP_ROUTES[r]),
      'unclassified app routes',
    ).toEqual([]);
    expect(
      Object.keys(APP_ROUTES).filter((r) => !app.includes(r)),
      'classified routes that no longer exist',
    ).toEqual([]);
    expect(
      signing.filter((r) => !SIGN_ROUTES[r]),
      'unclassified signing routes',
    ).toEqual([]);
    expect(Object.keys(SIGN_ROUTES).filter((r) => !signing.includes(r))).toEqual([]);
  });

  it("refuses every patient route with another link's session, and without the API key or a session", async () => {
    const before = await databaseFingerprint(t.ctx.db, PATIENT_TABLES);
    const wrong: string[] = [];
    let calls = 0;
    for (const [route, rule] of Object.entries(APP_ROUTES)) {
      const [method, pattern] = route.split(' ') as [string, string];
      if (rule.access !== 'patient' && rule.access !== 'apiKey') continue;
      const req = patientRequest(method, pattern);
      // No API key: 401 on every product route.
      const noKey = await t.app.inject({ ...req, headers: {} });
      calls++;
      if (noKey.statusCode !== 401 || leaksA(noKey.body))
        wrong.push(`${route} without the API key → ${noKey.statusCode}`);
      if (rule.access !== 'patient') continue;
      const noSession = await t.app.inject(req);
      calls++;
      // Signing out without a valid session is a successful no-op (204): there is nothing to end.
      const expectedNoSession = route === 'POST /api/auth/logout' ? 204 : 401;
      if (noSession.statusCode !== expectedNoSession)
        wrong.push(`${route} without a session → ${noSession.statusCode}`);
      if (rule.bind === 'session') continue;
      const foreign = await t.app.inject({
        ...req,
        headers: { ...(req.headers as object), authorization: `Bearer ${sessionB}` },
      });
      calls++;
      if (![401, 403, 404].includes(foreign.statusCode) || leaksA(foreign.body)) {
        wrong.push(`${route} with B's session → ${foreign.statusCode} ${foreign.body.slice(0, 120)}`);
      }
    }
    console.info(`IDOR matrix: ${calls} patient-route calls refused`);
    expect(wrong).toEqual([]);
    expect(calls).toBeGreaterThan(25);
    expect(await databaseFingerprint(t.ctx.db, PATIENT_TABLES)).toEqual(before);
  });

  it('refuses every staff route without a token (401), with an expired one (401) and with a weaker role (403)', async () => {
    const before = await databaseFingerprint(t.ctx.db, PATIENT_TABLES);
    const wrong: string[] = [];
    let calls = 0;
    for (const [route, rule] of Object.entries(APP_ROUTES)) {
      if (rule.access !== 'staff') continue;
      const [method, pattern] = route.split(' ') as [InjectOptions['method'] & string, string];
      const req: InjectOptions = {
        method,
        url: urlFor(pattern),
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      };
      const cases: [string, Record<string, string>, number][] = [
        ['no token', {}, 401],
        ['an expired token', { authorization: `Bearer ${expired}` }, 401],
        ['a forged token', { authorization: `Bearer ${tokens.admin.slice(0, -4)}AAAA` }, 401],
        ['a forged console cookie', { cookie: 'paylink_staff=forged', 'x-paylink-console': '1' }, 401],
      ];
      if (rule.roles !== ANY) {
        for (const role of ROLES.filter((r) => !(rule.roles as readonly string[]).includes(r))) {
          cases.push([`the ${role} role`, { authorization: `Bearer ${tokens[role]}` }, 403]);
        }
      }
      for (const [label, headers, expected] of cases) {
        const r = await t.app.inject({ ...req, headers });
        calls++;
        if (r.statusCode !== expected || leaksA(r.body)) wrong.push(`${route} with ${label} → ${r.statusCode}`);
      }
    }
    console.info(`IDOR matrix: ${calls} staff-route calls refused`);
    expect(wrong).toEqual([]);
    expect(calls).toBeGreaterThan(200);
    expect(await databaseFingerprint(t.ctx.db, PATIENT_TABLES)).toEqual(before);
  });

  it('refuses unsigned Twilio webhooks, the dev outbox from another machine and forged unsubscribe tokens', async () => {
    for (const url of ['/api/webhooks/twilio/status', '/api/webhooks/twilio/sms']) {
      const r = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'From=%2B13055550123&Body=STOP',
      });
      expect(r.statusCode, url).toBe(403);
    }
    for (const url of ['/api/dev/outbox', '/dev/outbox', `/dev/outbox/${crypto.randomUUID()}`]) {
      const r = await t.app.inject({ method: 'GET', url, remoteAddress: '203.0.113.7' });
      expect([401, 403, 404], url).toContain(r.statusCode);
      expect(r.body).not.toMatch(/\b\d{6}\b.*code|oobCode/i);
    }
    for (const method of ['GET', 'POST'] as const) {
      const r = await t.app.inject({ method, url: '/unsubscribe?t=forged.token' });
      expect(r.statusCode).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
    }
  });

  it("answers 404 to an unknown signing token on every signing URL, and never serves A's file through B's token", async () => {
    const unknown = 'x'.repeat(43);
    for (const route of Object.keys(SIGN_ROUTES).filter((r) => r.includes(':token'))) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST', string];
      const upload = multipartFile('x.jpg', 'image/jpeg', fixture('id-front.jpg'));
      const r = await sign.inject({
        method,
        url:
          pattern.replace(':token', unknown).replace(':fileId', fileOfA) +
          (pattern.endsWith('/files') ? '?side=front' : ''),
        ...(pattern.endsWith('/files')
          ? { payload: upload.body, headers: { 'content-type': upload.contentType } }
          : method === 'POST'
            ? { payload: { signerName: 'Eve', method: 'type', typedSignature: 'Eve' } }
            : {}),
      });
      expect(r.statusCode, route).toBe(404);
      expect(leaksA(r.body), route).toBe(false);
    }
    const viaB = await sign.inject({ method: 'GET', url: `/s/${b.token(StepRoutes.patientId)}/files/${fileOfA}` });
    expect(viaB.statusCode).toBe(404);
    const page = await sign.inject({ method: 'GET', url: `/s/${b.token(StepRoutes.invoice)}` });
    expect(page.statusCode).toBe(200);
    expect(leaksA(page.body)).toBe(false);
  });
});
