/**
 * Renders a step page the way the app does (real store, real i18n with the locale files, real router) with the
 * app config given, and records the HTTP calls the page makes. The server is the one thing replaced: answers are
 * scripted per test through a fetch stand-in.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { I18nProvider } from '../i18n';
import { Provider } from 'react-redux';
import { createMemoryHistory, Route, RouterProvider, Switch, useLocation } from '../lib/router';
import { vi } from 'vitest';
import type { AppConfig, LinkStep, PatientInfo } from '@paylink/shared';
import { AppConfigProvider } from '../lib/app-config';
import { makeStore } from '../store/store';
import { signedIn } from '../store/auth-slice';
import { setContinue } from '../store/continue-slice';
import { setLink } from '../store/link-slice';
import { setPatient } from '../store/patient-slice';
import { setSteps } from '../store/step-production-slice';
import { createTestI18n } from './i18n';

export const LINK_ID = 'AbCdEfGhIjKlMnOpQrStUv';
export const SIGN_ORIGIN = 'http://127.0.0.1:7001';

export const testConfig: AppConfig = {
  practice: { name: 'Bright Smile Surgery', supportPhone: '555-0100', supportEmail: 'help@example.com', logoUrl: null },
  signOrigin: SIGN_ORIGIN,
  gateway: {
    checkoutJsUrl: 'http://127.0.0.1:7002/hosted-payments/Checkout.js',
    threeDSSdkUrl: 'http://127.0.0.1:7002/3ds2/web-sdk.js',
    threeDSBaseUrl: 'http://127.0.0.1:7002/3ds2',
  },
  captchaSiteKey: null,
  captchaScriptUrl: null,
  sandbox: true,
};

export function stepList(source: 1 | 2 = 1, status: Record<string, number> = {}): LinkStep[] {
  const routes = [
    '/patientinfo',
    '/patientinvoicedetail',
    '/patientiddocs',
    ...(source === 2 ? ['/payoriddocs'] : []),
    '/patientcontract',
    '/paymentauthorization',
    '/confirmation',
  ];
  return routes.map((routePath, i) => ({
    linkStepId: 100 + i,
    routePath,
    documentUrl:
      routePath === '/paymentauthorization' && source !== 2
        ? null
        : `${SIGN_ORIGIN}/s/token-${i}${routePath.replace('/', '-')}`,
    linkStepStatusId: status[routePath] ?? (i === 0 ? 4 : 1),
  }));
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

type Answer = { status?: number; statusText?: string; json?: unknown; text?: string };
export type Responder = (call: RecordedCall) => Answer | Promise<Answer>;

/**
 * Stands in for the server: every fetch is recorded and answered by `respond` (200 {} by default). A link has no
 * payment plan (issue 28: GET /api/plans/:linkId is a 404, as the server answers) unless `opts.plans` hands the
 * plan routes to `respond` too.
 */
export function fakeServer(respond: Responder = () => ({ json: {} }), opts: { plans?: boolean } = {}) {
  const calls: RecordedCall[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const a =
      !opts.plans && call.path.startsWith('/api/plans/')
        ? { status: 404, statusText: 'Not Found', json: { error: 'not_found', message: 'This link has no plan.' } }
        : await respond(call);
    const status = a.status ?? 200;
    const isText = a.text !== undefined;
    return new Response(isText ? a.text : JSON.stringify(a.json ?? {}), {
      status,
      statusText: a.statusText ?? (status === 200 ? 'OK' : ''),
      headers: { 'content-type': isText ? 'text/plain' : 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: async (k: string) => m.get(k) ?? null,
    setItem: async (k: string, v: string) => void m.set(k, v),
    removeItem: async (k: string) => void m.delete(k),
  };
}

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname}</p>;
}

export interface RenderStepOptions {
  path: string;
  element: ReactElement;
  steps?: LinkStep[];
  isContinue?: boolean;
  patient?: PatientInfo;
  lng?: 'en' | 'es';
}

export async function renderStepPage(opts: RenderStepOptions) {
  const i18n = await createTestI18n(opts.lng ?? 'en');
  const { store, persistor } = makeStore({ storage: memoryStorage() });
  await new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const off = persistor.subscribe(() => {
      if (persistor.getState().bootstrapped) {
        off();
        resolve();
      }
    });
  });
  store.dispatch(setLink({ link_id: LINK_ID }));
  store.dispatch(signedIn({ token: 'session-jwt', expiresAt: new Date(Date.now() + 3_600_000).toISOString() }));
  store.dispatch(setSteps(opts.steps ?? stepList()));
  if (opts.patient) store.dispatch(setPatient(opts.patient));
  if (opts.isContinue) store.dispatch(setContinue(true));
  const router = createMemoryHistory(opts.path);
  const view = render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <AppConfigProvider value={testConfig}>
          <RouterProvider history={router}>
            <Switch>
              <Route path={opts.path}>{opts.element}</Route>
              <Route>
                <Landed />
              </Route>
            </Switch>
          </RouterProvider>
        </AppConfigProvider>
      </I18nProvider>
    </Provider>,
  );
  return { ...view, store, persistor, router, i18n };
}

/** What the signing page posts to its parent when the server recorded completion. */
export function postSigningMessage(opts: { origin?: string; action?: string; source?: Window | null } = {}) {
  const frame = document.querySelector('iframe');
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { action: opts.action ?? 'submission-completed', formID: 'sub-1' },
      origin: opts.origin ?? SIGN_ORIGIN,
      source: opts.source === undefined ? (frame?.contentWindow ?? null) : opts.source,
    }),
  );
}
