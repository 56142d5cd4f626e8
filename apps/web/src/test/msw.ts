/** msw at the network edge for jsdom tests: real fetch calls from our API client, answered by handlers. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { AppConfig } from '@paylink/shared';

export const testConfig: AppConfig = {
  practice: {
    name: 'Bella Vista Plastic Surgery',
    supportPhone: '(555) 010-0123',
    supportEmail: 'billing@bv.example',
    logoUrl: null,
  },
  signOrigin: 'http://sign.test',
  gateway: {
    checkoutJsUrl: 'http://gw.test/c.js',
    threeDSSdkUrl: 'http://gw.test/3ds.js',
    threeDSBaseUrl: 'http://gw.test/3ds',
  },
  captchaSiteKey: null,
  captchaScriptUrl: null,
  sandbox: true,
};

/** Answers every test may trigger in passing (step pages mark themselves in progress; sign-out). */
export const server = setupServer(
  http.get('*/api/config', () => HttpResponse.json(testConfig)),
  http.post('*/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
  // Most links have no payment plan (the patient information and payment pages ask).
  http.get('*/api/plans/:linkId', () =>
    HttpResponse.json({ error: 'not_found', message: 'This link has no payment plan.' }, { status: 404 }),
  ),
  http.put('*/api/linksteps', ({ request }) => {
    const q = new URL(request.url).searchParams;
    return HttpResponse.json({
      linkStepId: Number(q.get('linkStepId')),
      linkStepStatusId: Number(q.get('LinkStepStatusId')),
      routePath: '',
      nextRoutePath: null,
    });
  }),
);

/** Call once at the top of a test file. */
export function setupMsw() {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

export { http, HttpResponse };
