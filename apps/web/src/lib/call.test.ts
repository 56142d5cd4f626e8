import { describe, expect, expectTypeOf, it } from 'vitest';
import { HttpResponse, http } from 'msw';
import {
  patientEndpoints,
  type AuthOptions,
  type LinkStep,
  type PatientInfo,
  type SessionResult,
} from '@paylink/shared';
import { server, setupMsw } from '../test/msw';
import { call } from './api-client';

setupMsw();

describe('call(): the route table, typed (decision 0123)', () => {
  it('fills and encodes path params, sends query and body, and answers the parsed body', async () => {
    let url = '';
    let body: unknown;
    server.use(
      http.post('*/api/linkpaymenthistory/:linkId/log', async ({ request }) => {
        url = request.url;
        body = await request.json();
        return HttpResponse.json({ id: 7 }, { status: 201 });
      }),
    );
    const r = await call(patientEndpoints.logPaymentResponse, {
      params: { linkId: 'a/b c' },
      body: { linkStepId: 3, payload: 'declined' },
    });
    expect(r).toEqual({ id: 7 });
    expect(new URL(url).pathname).toBe('/api/linkpaymenthistory/a%2Fb%20c/log');
    expect(body).toEqual({ linkStepId: 3, payload: 'declined' });
  });

  it('uses the method of the table and leaves undefined query values out', async () => {
    let url = '';
    server.use(
      http.put('*/api/linksteps', ({ request }) => {
        url = request.url;
        return HttpResponse.json({ linkStepId: 3, linkStepStatusId: 4, routePath: '/x', nextRoutePath: null });
      }),
    );
    await call(patientEndpoints.updateStep, { query: { linkId: 'L', linkStepId: 3, LinkStepStatusId: 4 } });
    expect(new URL(url).search).toBe('?linkId=L&linkStepId=3&LinkStepStatusId=4');
  });

  it('answers undefined for 204', async () => {
    server.use(http.post('*/api/auth/logout', () => new HttpResponse(null, { status: 204 })));
    await expect(call(patientEndpoints.logout)).resolves.toBeUndefined();
  });

  it('infers inputs and answers from the shared schemas (types only)', () => {
    // Compile-time checks: tsc -p apps/web fails when the table and call() disagree.
    expectTypeOf(call<typeof patientEndpoints.patientInfo>).returns.resolves.toEqualTypeOf<PatientInfo>();
    expectTypeOf(call<typeof patientEndpoints.authOptions>).returns.resolves.toEqualTypeOf<AuthOptions>();
    expectTypeOf(call<typeof patientEndpoints.smsVerify>).returns.resolves.toEqualTypeOf<SessionResult>();
    expectTypeOf(call<typeof patientEndpoints.createStepList>).returns.resolves.toEqualTypeOf<LinkStep[]>();
    expectTypeOf(call<typeof patientEndpoints.paymentSession>).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf(call<typeof patientEndpoints.logout>).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf(call<typeof patientEndpoints.smsVerify>)
      .parameter(1)
      .exclude<undefined>()
      .toHaveProperty('body')
      .toEqualTypeOf<{ linkId: string; code: string }>();
    expectTypeOf(call<typeof patientEndpoints.patientInfo>)
      .parameter(1)
      .exclude<undefined>()
      .toHaveProperty('params')
      .toEqualTypeOf<{ linkId: string }>();

    if (Math.random() > 2) {
      // Never runs; each line must be a type error.
      // @ts-expect-error params are required for a path with :linkId
      void call(patientEndpoints.patientInfo, {});
      // @ts-expect-error a wrong body field
      void call(patientEndpoints.smsVerify, { body: { linkId: 'L', otp: '123456' } });
      // @ts-expect-error an endpoint the table does not have
      void call({ method: 'GET', path: '/api/nowhere' } as const);
      // Calls without input may leave it out.
      void call(patientEndpoints.sessionRefresh);
    }
  });
});
