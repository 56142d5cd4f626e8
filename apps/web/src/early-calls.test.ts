import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpResponse, http } from 'msw';
import { LINK_ID_PATTERN, patientEndpoints } from '@paylink/shared';
import { server, setupMsw, testConfig } from './test/msw';
import { EARLY_CALLS_GLOBAL, earlyCalls, earlyCallsScript, type EarlyCallsConfig } from './early-calls';
import { ApiError, NetworkError, api, call, setAccessTokenGetter } from './lib/api-client';
import { PERSIST_STORAGE_KEY } from './store/persist';

setupMsw();

const LINK_ID = 'AbCdEfGhIjKlMnOpQrStUv';
const config: EarlyCallsConfig = {
  base: '',
  key: 'paylink-sandbox-api-key',
  linkIdPattern: LINK_ID_PATTERN.source,
  persistKey: PERSIST_STORAGE_KEY,
};

/** Every request the server saw: method, path + query, and the headers the preload must match. */
let seen: { url: string; apiKey: string | null; tunnel: string | null; authorization: string | null }[] = [];
let method: 'sms' | 'email' = 'sms';

function answerFirstScreen() {
  server.use(
    http.get('*/api/config', ({ request }) => {
      record(request);
      return HttpResponse.json(testConfig);
    }),
    http.get('*/api/auth/options', ({ request }) => {
      record(request);
      return HttpResponse.json({ method, captchaSiteKey: null });
    }),
    http.get('*/api/patients/:linkId/notoken', ({ request }) => {
      record(request);
      return HttpResponse.text('(***) ***-4567');
    }),
  );
}
function record(request: Request) {
  const u = new URL(request.url);
  seen.push({
    url: u.pathname + u.search,
    apiKey: request.headers.get('x-api-key'),
    tunnel: request.headers.get('ngrok-skip-browser-warning'),
    authorization: request.headers.get('authorization'),
  });
}
const early = () => (window as unknown as Record<string, Record<string, unknown> | undefined>)[EARLY_CALLS_GLOBAL];
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('early calls: index.html starts the first screen API calls (decision 0180)', () => {
  beforeEach(() => {
    seen = [];
    method = 'sms';
    localStorage.clear();
    answerFirstScreen();
  });
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[EARLY_CALLS_GLOBAL];
    window.history.replaceState(null, '', '/');
    setAccessTokenGetter(() => undefined);
  });

  it('on /auth?id=<sms link> starts config, options and the masked phone, each once, with the app headers', async () => {
    window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
    earlyCalls(config);
    await settle();
    expect(seen.map((s) => s.url)).toEqual([
      '/api/config',
      `/api/auth/options?linkId=${LINK_ID}`,
      `/api/patients/${LINK_ID}/notoken?c=p`,
    ]);
    for (const s of seen)
      expect(s).toMatchObject({ apiKey: 'paylink-sandbox-api-key', tunnel: 'true', authorization: null });

    // The app's own calls take those answers: the server sees no second request.
    await expect(call(patientEndpoints.config, { auth: false })).resolves.toEqual(testConfig);
    await expect(call(patientEndpoints.authOptions, { query: { linkId: LINK_ID }, auth: false })).resolves.toEqual({
      method: 'sms',
      captchaSiteKey: null,
    });
    await expect(
      call(patientEndpoints.phoneToVerify, {
        params: { linkId: LINK_ID },
        query: { c: 'p' },
        auth: false,
        responseType: 'text',
      }),
    ).resolves.toBe('(***) ***-4567');
    expect(seen).toHaveLength(3);
    // Each answer is taken once: a later call asks the server.
    await call(patientEndpoints.config, { auth: false });
    expect(seen).toHaveLength(4);
  });

  it('an e-mail link: no masked-phone call; the app still asks by itself if it wants one', async () => {
    method = 'email';
    window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
    earlyCalls(config);
    await settle();
    expect(seen.map((s) => s.url)).toEqual(['/api/config', `/api/auth/options?linkId=${LINK_ID}`]);
    await api.get(`/api/patients/${LINK_ID}/notoken`, { query: { c: 'p' }, auth: false, responseType: 'text' });
    expect(seen.map((s) => s.url).at(-1)).toBe(`/api/patients/${LINK_ID}/notoken?c=p`);
    expect(seen).toHaveLength(3);
  });

  it('a browser with persisted state (maybe signed in): options only, the page decides about the phone', async () => {
    localStorage.setItem(PERSIST_STORAGE_KEY, '{}');
    window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
    earlyCalls(config);
    await settle();
    expect(seen.map((s) => s.url)).toEqual(['/api/config', `/api/auth/options?linkId=${LINK_ID}`]);
    expect(Object.keys(early() ?? {})).toHaveLength(2);
  });

  it('the masked phone already in the page (the first screen, decision 0226): options only', async () => {
    const meta = document.createElement('meta');
    meta.name = 'paylink-sign-in';
    meta.content = 'sms';
    meta.setAttribute('data-phone', '(***) ***-4567');
    document.head.append(meta);
    try {
      window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
      earlyCalls(config);
      await settle();
      expect(seen.map((s) => s.url)).toEqual(['/api/config', `/api/auth/options?linkId=${LINK_ID}`]);
    } finally {
      meta.remove();
    }
  });

  it.each([
    ['an invalid link id', `/auth?id=${encodeURIComponent('x>"<script>')}`],
    ['no link id', '/auth'],
    ['an e-mailed sign-in link', `/auth?id=${LINK_ID}&mode=signIn&oobCode=abc`],
    ['another page', '/patientinfo'],
  ])('%s: only the config', async (_, url) => {
    window.history.replaceState(null, '', url);
    earlyCalls(config);
    await settle();
    expect(seen.map((s) => s.url)).toEqual(['/api/config']);
  });

  it('a call with a token in memory does not take an early answer (its headers differ)', async () => {
    window.history.replaceState(null, '', '/patientinfo');
    earlyCalls(config);
    await settle();
    setAccessTokenGetter(() => 'tok-1');
    await api.get('/api/config');
    expect(seen.map((s) => s.authorization)).toEqual([null, 'Bearer tok-1']);
  });

  it('failures of an early call reach the page as the API client reports them', async () => {
    server.use(
      http.get('*/api/auth/options', () => HttpResponse.text('Link Expired.', { status: 401 })),
      http.get('*/api/config', () => HttpResponse.error()),
    );
    window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
    earlyCalls(config);
    await settle();
    await expect(call(patientEndpoints.config, { auth: false })).rejects.toBeInstanceOf(NetworkError);
    const e = await call(patientEndpoints.authOptions, { query: { linkId: LINK_ID }, auth: false }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(401);
    expect((e as ApiError).text).toBe('Link Expired.');
  });

  it('the inline script text runs on its own (no imports or module values)', async () => {
    window.history.replaceState(null, '', `/auth?id=${LINK_ID}`);
    const script = earlyCallsScript(config);
    expect(script).not.toMatch(/\bimport\b|__vite|require\(/);
    new Function(script)();
    await settle();
    expect(seen).toHaveLength(3);
  });
});
