import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Op = { tags?: string[]; security?: unknown[]; responses?: Record<string, unknown>; parameters?: unknown[] };

describe('OpenAPI document at /api/docs', () => {
  it('documents every link and admin route with tags, security and answers', async () => {
    const r = await t.app.inject({ url: '/api/docs' });
    expect(r.statusCode).toBe(200);
    const doc = r.json() as { paths: Record<string, Record<string, Op>>; components: { securitySchemes: object } };
    expect(doc.components.securitySchemes).toHaveProperty('apiKey');
    expect(doc.components.securitySchemes).toHaveProperty('bearer');
    const mine = [
      'get /api/patients/{linkId}/notoken',
      'get /api/patients/patientinfo/{linkId}',
      'get /api/linksteps/script/{linkId}/check',
      'post /api/linkpaymenthistory',
      'post /api/linksteps/script',
      'put /api/linksteps',
      'post /api/admin/login',
      'get /api/admin/links',
      'post /api/admin/links',
      'get /api/admin/links/{id}',
      'post /api/admin/links/{id}/cancel',
      'post /api/admin/links/{id}/expire',
      'post /api/admin/links/{id}/extend',
      'get /api/admin/payments',
      'post /api/admin/session',
      'get /api/admin/session',
      'delete /api/admin/session',
      'post /api/admin/session/sign-out-everywhere',
      'get /api/admin/me/2fa',
      'post /api/admin/me/2fa/setup',
      'post /api/admin/me/2fa/enable',
      'post /api/admin/me/2fa/recovery-codes',
      'post /api/admin/me/2fa/disable',
      'get /api/admin/board',
      'get /api/admin/board/changes',
      'get /api/admin/links/{id}/detail',
      'get /api/admin/payments/report',
      'get /api/admin/payments/export',
      'get /api/admin/funnel',
      'get /api/admin/coordinators',
      'get /api/admin/staff',
      'patch /api/admin/staff/{id}',
      'post /api/admin/staff/{id}/reset-2fa',
      'get /api/admin/settings',
      'put /api/admin/settings',
    ];
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    for (const route of mine) expect(documented).toContain(route);
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        expect(op.tags?.length, `${m} ${p} tags`).toBeGreaterThan(0);
        expect(Array.isArray(op.security), `${m} ${p} security`).toBe(true);
        expect(
          Object.keys(op.responses ?? {}).some((c) => c.startsWith('2')),
          `${m} ${p} answer`,
        ).toBe(true);
      }
    }
    const put = doc.paths['/api/linksteps']!.put!;
    expect(JSON.stringify(put.parameters)).toContain('LinkStepStatusId');
    expect(Object.keys(put.responses!)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '409']));
  });

  it('documents the payment plan a new link may carry and the plan links show answers (issue 28)', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    const json = (o: unknown) => JSON.stringify(o);
    const create = doc.paths['/api/admin/links'].post.requestBody.content['application/json'].schema;
    expect(create.properties.plan.description).toMatch(/payment plan/);
    expect(json(create.properties.plan)).toContain('"enum":["week","two_weeks","month"]');
    const show = doc.paths['/api/admin/links/{id}'].get.responses['200'].content['application/json'].schema;
    expect(json(show.properties.plan)).toContain(
      '"enum":["scheduled","notified","paid","failed","cancelled","refunded"]',
    );
    expect(show.properties.plan.properties.projected.description).toMatch(/before the deposit/);
  });
});
