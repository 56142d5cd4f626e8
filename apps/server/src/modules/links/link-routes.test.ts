import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateLinkBody } from '@paylink/shared';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { markStepDocumentSigned, snapshotLinkData } from '../../../test/support/links.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function newLink(overrides: Partial<CreateLinkBody> = {}) {
  const { link } = await seedLink(t.ctx, overrides);
  const token = await mintPatientToken(t.ctx, link.id);
  return { id: link.id, token, headers: apiHeaders(t.ctx, token) };
}

async function auditActions(linkId: string): Promise<string[]> {
  const r = await t.ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1 order by id', [
    linkId,
  ]);
  return r.rows.map((x) => x.action);
}

const setState = {
  expired: (id: string) =>
    t.ctx.db.query(`update link set expires_at = now() - interval '1 minute' where id = $1`, [id]),
  cancelled: (id: string) =>
    t.ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [id]),
  completed: (id: string) =>
    t.ctx.db.query(`update link set status = 'completed', completed_at = now() where id = $1`, [id]),
};

describe('GET /api/patients/{linkId}/notoken?c=p', () => {
  it('answers the phone number as text, masked but for the last 4 digits, and audits the read', async () => {
    const { id } = await newLink({ phone: '(555) 010-4567' });
    const r = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toBe('(***) ***-4567');
    expect(r.body).not.toContain('010');
    expect(await auditActions(id)).toContain('patient.phone_lookup');
  });

  it.each([
    ['expired', 'Link Expired.'],
    ['cancelled', 'Link has been Cancelled.'],
    ['completed', 'Process has completed.'],
  ] as const)('answers 401 %s with its text', async (state, text) => {
    const { id } = await newLink();
    await setState[state](id);
    const r = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toBe(text);
  });

  it('answers unknown and malformed ids with the same plain 401', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', 'a%20b']) {
      const r = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
      expect(r.statusCode).toBe(401);
      expect(r.body).toBe('Not Authorized');
    }
  });

  it('refuses a missing or wrong API key', async () => {
    const { id } = await newLink();
    const none = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'invalid_api_key' });
    const wrong = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p`, headers: { 'x-api-key': 'wrong' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_api_key' });
  });

  it('refuses unknown query parameters', async () => {
    const { id } = await newLink();
    const r = await t.app.inject({ url: `/api/patients/${id}/notoken?c=p&x=1`, headers: apiHeaders(t.ctx) });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('invalid_request');
  });
});

describe('GET /api/patients/patientinfo/{linkId}', () => {
  it('answers the patient fields and isPaymentLinkLocked, and audits the read', async () => {
    const { id, headers } = await newLink({ isPaymentLinkLocked: true });
    const r = await t.app.inject({ url: `/api/patients/patientinfo/${id}`, headers });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      firstName: 'Maria',
      lastName: 'Lopez',
      address: '1200 Ocean Avenue',
      city: 'Santa Monica',
      state: 'CA',
      zipCode: '90401',
      phone: '+15550104567',
      email: 'maria.lopez@example.com',
      isPaymentLinkLocked: true,
      paymentAmount: null,
      paymentType: null,
      paymentSource: null,
    });
    const audit = await t.ctx.db.query<{ actor_type: string; request_id: string; ip: string }>(
      `select actor_type, request_id, ip from audit_event where link_id = $1 and action = 'patient.info_read'`,
      [id],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_type: 'link' });
    expect(audit.rows[0]!.request_id).toBeTruthy();
  });

  it('needs a session (401), opens its own link only (403) and answers 401 text by link state', async () => {
    const a = await newLink();
    const b = await newLink();
    const noToken = await t.app.inject({ url: `/api/patients/patientinfo/${a.id}`, headers: apiHeaders(t.ctx) });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().error).toBe('unauthorized');
    const other = await t.app.inject({ url: `/api/patients/patientinfo/${a.id}`, headers: b.headers });
    expect(other.statusCode).toBe(403);
    const garbage = await t.app.inject({
      url: `/api/patients/patientinfo/${a.id}`,
      headers: apiHeaders(t.ctx, 'not.a.jwt'),
    });
    expect(garbage.statusCode).toBe(401);
    await setState.expired(a.id);
    const expired = await t.app.inject({ url: `/api/patients/patientinfo/${a.id}`, headers: a.headers });
    expect(expired.statusCode).toBe(401);
    expect(expired.body).toBe('Link Expired.');
  });

  it('accepts the session from the jwt_authorization cookie', async () => {
    const { id, token } = await newLink();
    const r = await t.app.inject({
      url: `/api/patients/patientinfo/${id}`,
      headers: { ...apiHeaders(t.ctx), cookie: `jwt_authorization=${token}` },
    });
    expect(r.statusCode).toBe(200);
  });
});

describe('POST /api/linkpaymenthistory', () => {
  const choose = (l: { id: string; headers: Record<string, string> }, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: l.headers,
      payload: { linkId: l.id, ...body },
    });

  it.each([
    [1, 249, 400],
    [1, 250, 200],
    [1, 1000, 200],
    [1, 1001, 400],
    [2, 499, 400],
    [2, 500, 200],
    [2, 20000, 200],
    [2, 20001, 400],
  ])('type %i, amount %i → %i', async (paymentTypeId, paymentAmount, status) => {
    const l = await newLink();
    const before = await snapshotLinkData(t.ctx.db);
    const r = await choose(l, { paymentTypeId, paymentSourceId: 1, paymentAmount });
    expect(r.statusCode).toBe(status);
    if (status === 200) {
      expect(r.json()).toEqual({ linkId: l.id, paymentTypeId, paymentSourceId: 1, paymentAmount });
      const row = await t.ctx.db.query<{ amount_cents: number }>(
        'select amount_cents from payment where link_id = $1',
        [l.id],
      );
      expect(row.rows[0]!.amount_cents).toBe(paymentAmount * 100);
    } else {
      expect(r.json()).toMatchObject({
        error: 'amount_out_of_range',
        message:
          paymentTypeId === 1
            ? 'Amount entered must be between $250 and $1000'
            : 'Amount entered must be between $500 and $20,000',
      });
      expect(await snapshotLinkData(t.ctx.db)).toBe(before);
    }
  });

  it('forces type 2 on a locked link and applies its 500-20000 range', async () => {
    const l = await newLink({ isPaymentLinkLocked: true });
    expect((await choose(l, { paymentTypeId: 1, paymentAmount: 499 })).statusCode).toBe(400);
    const ok = await choose(l, { paymentTypeId: 1, paymentAmount: 500 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ paymentTypeId: 2, paymentSourceId: 1, paymentAmount: 500 });
    expect((await choose(l, { paymentAmount: 20001 })).statusCode).toBe(400);
  });

  it('defaults a missing type and source to 1, and takes ids as digit strings', async () => {
    const l = await newLink();
    const r = await choose(l, { paymentAmount: 300 });
    expect(r.json()).toEqual({ linkId: l.id, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 300 });
    const s = await choose(l, { paymentTypeId: '2', paymentSourceId: '2', paymentAmount: '750' });
    expect(s.statusCode).toBe(200);
    expect(s.json()).toMatchObject({ paymentTypeId: 2, paymentSourceId: 2, paymentAmount: 750 });
    expect(await auditActions(l.id)).toEqual(['link.created', 'payment.choice_recorded', 'payment.choice_recorded']);
  });

  it('refuses malformed bodies with 4xx and changes nothing', async () => {
    const l = await newLink();
    const before = await snapshotLinkData(t.ctx.db);
    const bad: { payload: unknown; contentType?: string; status: number }[] = [
      { payload: { paymentAmount: '25a' }, status: 400 },
      { payload: { paymentAmount: 500.5 }, status: 400 },
      { payload: { paymentAmount: -300 }, status: 400 },
      { payload: { paymentTypeId: 3, paymentAmount: 300 }, status: 400 },
      { payload: { paymentSourceId: 'payor', paymentAmount: 300 }, status: 400 },
      { payload: {}, status: 400 },
      { payload: { paymentAmount: 300, extra: true }, status: 400 },
    ];
    for (const b of bad) {
      const r = await choose(l, b.payload as Record<string, unknown>);
      expect(r.statusCode, JSON.stringify(b.payload)).toBe(b.status);
      expect(r.json().error).toBe('invalid_request');
      expect(r.json().message).toBeTruthy();
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: { ...l.headers, 'content-type': 'application/json' },
      payload: '{"linkId": ',
    });
    expect(notJson.statusCode).toBe(400);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: { ...l.headers, 'content-type': 'text/plain' },
      payload: 'paymentAmount=300',
    });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: { ...l.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ linkId: l.id, paymentAmount: 300, pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload_too_large');
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it("refuses another link's id with the session's token (403)", async () => {
    const a = await newLink();
    const b = await newLink();
    const r = await choose({ id: a.id, headers: b.headers }, { paymentAmount: 300 });
    expect(r.statusCode).toBe(403);
  });

  it('answers 401 text on a cancelled link', async () => {
    const l = await newLink();
    await setState.cancelled(l.id);
    const r = await choose(l, { paymentAmount: 300 });
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Link has been Cancelled.');
  });
});

describe('step list: POST /api/linksteps/script and GET /api/linksteps/script/{linkId}/check', () => {
  const createSteps = (l: { id: string; headers: Record<string, string> }, q: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${l.id}${q}`,
      headers: { ...l.headers, 'content-type': 'application/json' },
    });
  const check = (l: { id: string; headers: Record<string, string> }) =>
    t.app.inject({ url: `/api/linksteps/script/${l.id}/check`, headers: l.headers });

  it('builds the ordered list for a patient-paid link, /patientinfo completed, and restores it', async () => {
    const l = await newLink();
    expect((await check(l)).statusCode).toBe(404);
    const r = await createSteps(l, '&paymentTypeId=1&paymentSourceId=1&paymentAmount=250');
    expect(r.statusCode).toBe(200);
    const steps = r.json() as {
      linkStepId: number;
      routePath: string;
      linkStepStatusId: number;
      documentUrl: unknown;
    }[];
    expect(steps.map((s) => s.routePath)).toEqual([
      '/patientinfo',
      '/patientinvoicedetail',
      '/patientiddocs',
      '/patientcontract',
      '/paymentauthorization',
      '/confirmation',
    ]);
    expect(steps.map((s) => s.linkStepStatusId)).toEqual([4, 1, 1, 1, 1, 1]);
    for (const s of steps) expect(s).toHaveProperty('documentUrl');

    const c = await check(l);
    expect(c.statusCode).toBe(200);
    expect(c.json()).toMatchObject({
      linkStepScript: steps,
      person: { firstName: 'Maria', paymentAmount: 250, paymentType: 1, paymentSource: 1 },
      payment: { paymentAmount: 250, paymentSourceId: 1, paymentTypeId: 1 },
      paymentAmount: 250,
      currentRoutePath: '/patientinvoicedetail',
    });
    expect(await auditActions(l.id)).toEqual(
      expect.arrayContaining(['payment.choice_recorded', 'steps.created', 'steps.continue_check']),
    );
  });

  it('adds /payoriddocs when the payor pays; returns the same list again; rebuilds when who pays changes', async () => {
    const l = await newLink();
    const first = (await createSteps(l, '&paymentTypeId=2&paymentSourceId=2&paymentAmount=5000')).json();
    expect(first.map((s: { routePath: string }) => s.routePath)).toContain('/payoriddocs');
    expect(first).toHaveLength(7);
    const again = await createSteps(l, '&paymentTypeId=2&paymentSourceId=2&paymentAmount=5000');
    expect(again.json()).toEqual(first);
    // The choice recorded separately first (as the client does), then the list without the query's amount.
    const same = await createSteps(l, '');
    expect(same.json()).toEqual(first);
    const rebuilt = (await createSteps(l, '&paymentTypeId=2&paymentSourceId=1&paymentAmount=5000')).json();
    expect(rebuilt.map((s: { routePath: string }) => s.routePath)).not.toContain('/payoriddocs');
    expect(rebuilt).toHaveLength(6);
    expect(await auditActions(l.id)).toContain('steps.rebuilt');
  });

  it('keeps the list (and refuses a different choice) once a step after patient information is complete', async () => {
    const l = await newLink();
    const steps = (await createSteps(l, '&paymentSourceId=2&paymentAmount=400')).json();
    const invoice = steps[1];
    await markStepDocumentSigned(t.ctx.db, invoice.linkStepId);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/linksteps?linkId=${l.id}&linkStepId=${invoice.linkStepId}&LinkStepStatusId=4`,
      headers: l.headers,
    });
    expect(put.statusCode).toBe(200);
    const again = await createSteps(l, '&paymentSourceId=1&paymentAmount=400');
    expect(again.statusCode).toBe(200);
    expect(again.json().map((s: { linkStepId: number }) => s.linkStepId)).toEqual(
      steps.map((s: { linkStepId: number }) => s.linkStepId),
    );
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: l.headers,
      payload: { linkId: l.id, paymentSourceId: 1, paymentAmount: 400 },
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().error).toBe('payment_choice_locked');
  });

  it('refuses a list before any payment choice, and out-of-range amounts in the query', async () => {
    const l = await newLink();
    const none = await createSteps(l, '');
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('payment_not_chosen');
    const low = await createSteps(l, '&paymentTypeId=1&paymentAmount=249');
    expect(low.statusCode).toBe(400);
    const bodyGiven = await t.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${l.id}&paymentAmount=300`,
      headers: l.headers,
      payload: { something: 1 },
    });
    expect(bodyGiven.statusCode).toBe(400);
    expect(await auditActions(l.id)).toEqual(['link.created']);
  });

  it('answers the continue check with 401 text by link state', async () => {
    const l = await newLink();
    await createSteps(l, '&paymentAmount=300');
    await setState.completed(l.id);
    const r = await check(l);
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Process has completed.');
  });
});

describe('PUT /api/linksteps', () => {
  async function linkWithSteps(source = 1) {
    const l = await newLink();
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${l.id}&paymentSourceId=${source}&paymentAmount=500`,
      headers: l.headers,
    });
    const steps = r.json() as { linkStepId: number; routePath: string }[];
    const put = (linkStepId: number, status: number | string, headers = l.headers, linkId = l.id) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/linksteps?linkId=${linkId}&linkStepId=${linkStepId}&LinkStepStatusId=${status}`,
        headers: { ...headers, 'content-type': 'application/json' },
      });
    const step = (route: string) => steps.find((s) => s.routePath === route)!.linkStepId;
    /** Signs the step's document (as the signing service records it), then completes the step. */
    const complete = async (route: string) => {
      await markStepDocumentSigned(t.ctx.db, step(route));
      return put(step(route), 4);
    };
    return { ...l, steps, put, step, complete };
  }

  it('sets 2 then 4 in order and answers the next routePath', async () => {
    const l = await linkWithSteps(2);
    const inProgress = await l.put(l.step('/patientinvoicedetail'), 2);
    expect(inProgress.statusCode).toBe(200);
    expect(inProgress.json()).toEqual({
      linkStepId: l.step('/patientinvoicedetail'),
      linkStepStatusId: 2,
      routePath: '/patientinvoicedetail',
      nextRoutePath: '/patientiddocs',
    });
    expect((await l.complete('/patientinvoicedetail')).statusCode).toBe(200);
    expect((await l.complete('/patientiddocs')).statusCode).toBe(200);
    const payor = await l.complete('/payoriddocs');
    expect(payor.json().nextRoutePath).toBe('/patientcontract');
    const rows = await t.ctx.db.query<{ route_path: string; status_id: number; completed_at: Date | null }>(
      'select route_path, status_id, completed_at from link_step where link_id = $1 order by position',
      [l.id],
    );
    expect(rows.rows.slice(0, 4).every((s) => s.status_id === 4 && s.completed_at)).toBe(true);
    const check = await t.app.inject({ url: `/api/linksteps/script/${l.id}/check`, headers: l.headers });
    expect(check.json().currentRoutePath).toBe('/patientcontract');
    expect((await auditActions(l.id)).filter((a) => a === 'step.updated')).toHaveLength(4);
  });

  it('refuses completing a step whose earlier steps are open (409) and changes nothing', async () => {
    const l = await linkWithSteps();
    const before = await snapshotLinkData(t.ctx.db);
    const r = await l.put(l.step('/patientcontract'), 4);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'step_order' });
    expect(r.json().message).toContain('/patientinvoicedetail');
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it('refuses completing the payment step: only an approved payment does that', async () => {
    const l = await linkWithSteps();
    for (const route of ['/patientinvoicedetail', '/patientiddocs', '/patientcontract']) {
      expect((await l.complete(route)).statusCode).toBe(200);
    }
    expect((await l.put(l.step('/paymentauthorization'), 2)).statusCode).toBe(200);
    const r = await l.put(l.step('/paymentauthorization'), 4);
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('payment_step');
  });

  it('refuses completing a document step whose document is not signed (409) and changes nothing', async () => {
    const l = await linkWithSteps();
    const before = await snapshotLinkData(t.ctx.db);
    const r = await l.put(l.step('/patientinvoicedetail'), 4);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: 'document_not_signed', message: 'Sign the document before continuing.' });
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it('refuses reopening a completed step', async () => {
    const l = await linkWithSteps();
    expect((await l.complete('/patientinvoicedetail')).statusCode).toBe(200);
    const r = await l.put(l.step('/patientinvoicedetail'), 2);
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('step_completed');
  });

  it("answers 403 for another link's step and for another link's token", async () => {
    const a = await linkWithSteps();
    const b = await linkWithSteps();
    const before = await snapshotLinkData(t.ctx.db);
    const otherStep = await a.put(b.step('/patientinvoicedetail'), 2);
    expect(otherStep.statusCode).toBe(403);
    const otherToken = await a.put(a.step('/patientinvoicedetail'), 2, b.headers);
    expect(otherToken.statusCode).toBe(403);
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it('refuses any change on a link that is not active (409)', async () => {
    for (const state of ['expired', 'cancelled', 'completed'] as const) {
      const l = await linkWithSteps();
      await setState[state](l.id);
      const r = await l.put(l.step('/patientinvoicedetail'), 2);
      expect(r.statusCode, state).toBe(409);
      expect(r.json().error).toBe('link_not_active');
    }
  });

  it('refuses bad query values and unknown steps', async () => {
    const l = await linkWithSteps();
    expect((await l.put(l.step('/patientinvoicedetail'), 3)).statusCode).toBe(400);
    expect((await l.put(l.step('/patientinvoicedetail'), 'x')).statusCode).toBe(400);
    expect((await l.put(999_999, 2)).statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'PUT', url: `/api/linksteps?linkId=${l.id}`, headers: l.headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('linkStepId');
    const noSession = await l.put(l.step('/patientinvoicedetail'), 2, apiHeaders(t.ctx));
    expect(noSession.statusCode).toBe(401);
  });

  it('refuses a revoked or expired session at once (its row is checked in the statement that locks the link)', async () => {
    const l = await linkWithSteps();
    expect((await l.put(l.step('/patientinvoicedetail'), 2)).statusCode).toBe(200);
    await t.ctx.db.query('update patient_session set revoked_at = now() where link_id = $1', [l.id]);
    const revoked = await l.put(l.step('/patientinvoicedetail'), 4);
    expect(revoked.statusCode).toBe(401);
    // Nothing was written: the step stays in progress.
    const step = await t.ctx.db.query<{ status_id: number }>('select status_id from link_step where id = $1', [
      l.step('/patientinvoicedetail'),
    ]);
    expect(step.rows[0]!.status_id).toBe(2);
    const m = await linkWithSteps();
    await t.ctx.db.query(`update patient_session set expires_at = now() - interval '1 second' where link_id = $1`, [
      m.id,
    ]);
    expect((await m.put(m.step('/patientinvoicedetail'), 2)).statusCode).toBe(401);
    // Another link's id: 401 for a dead session (never 403), as the full session guard answered.
    expect((await m.put(l.step('/patientinvoicedetail'), 2, m.headers, l.id)).statusCode).toBe(401);
  });
});
