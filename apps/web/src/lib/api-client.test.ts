import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpResponse, delay, http } from 'msw';
import { server, setupMsw } from '../test/msw';
import { ApiError, NetworkError, api, isMobileUserAgent, setAccessTokenGetter } from './api-client';
import { routeFailure } from './use-api-failure';

setupMsw();

describe('api client (spec section 7)', () => {
  afterEach(() => {
    setAccessTokenGetter(() => undefined);
    vi.useRealTimers();
  });

  it('sends the API key, the tunnel header, JSON and the bearer token when one is in memory', async () => {
    let headers: Headers | undefined;
    let body: unknown;
    server.use(
      http.post('*/api/echo', async ({ request }) => {
        headers = request.headers;
        body = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    setAccessTokenGetter(() => 'tok-1');
    await expect(api.post('/api/echo', { body: { a: 1 }, query: { x: 'y', skip: undefined } })).resolves.toEqual({
      ok: true,
    });
    expect(headers?.get('x-api-key')).toBe('paylink-sandbox-api-key');
    expect(headers?.get('ngrok-skip-browser-warning')).toBe('true');
    expect(headers?.get('content-type')).toBe('application/json');
    expect(headers?.get('authorization')).toBe('Bearer tok-1');
    expect(body).toEqual({ a: 1 });
  });

  it('leaves the token out when auth is false, and the content type out when there is no body', async () => {
    let headers: Headers | undefined;
    let url = '';
    server.use(
      http.put('*/api/linksteps', ({ request }) => {
        headers = request.headers;
        url = request.url;
        return HttpResponse.json({});
      }),
    );
    setAccessTokenGetter(() => 'tok-1');
    await api.put('/api/linksteps', { query: { linkId: 'L', linkStepId: 3, LinkStepStatusId: 4 }, auth: false });
    expect(headers?.get('authorization')).toBeNull();
    expect(headers?.get('content-type')).toBeNull();
    expect(new URL(url).search).toBe('?linkId=L&linkStepId=3&LinkStepStatusId=4');
  });

  it('returns text answers as text', async () => {
    server.use(http.get('*/api/patients/x/notoken', () => HttpResponse.text('(***) ***-4567')));
    await expect(api.get('/api/patients/x/notoken', { responseType: 'text' })).resolves.toBe('(***) ***-4567');
  });

  it('throws ApiError with status, statusText, body and code', async () => {
    server.use(
      http.post('*/api/auth/sms/verify', () =>
        HttpResponse.json(
          { error: 'auth/code-expired', message: 'The code has expired.' },
          { status: 400, statusText: 'Bad Request' },
        ),
      ),
      http.get('*/api/check', () => HttpResponse.text('Link Expired.', { status: 401, statusText: 'Unauthorized' })),
    );
    const e1 = await api.post('/api/auth/sms/verify', { body: {} }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ApiError);
    expect(e1).toMatchObject({ status: 400, statusText: 'Bad Request', code: 'auth/code-expired' });
    expect((e1 as ApiError).message).toBe('The code has expired.');
    const e2 = (await api.get('/api/check').catch((e: unknown) => e)) as ApiError;
    expect(e2.text).toBe('Link Expired.');
    expect(routeFailure(e2)).toEqual({ kind: 'page', path: '/linkexpired' });
  });

  it('counts an unreachable server and a 30 s silence as network failures', async () => {
    server.use(http.get('*/api/down', () => HttpResponse.error()));
    await expect(api.get('/api/down')).rejects.toBeInstanceOf(NetworkError);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(
      http.get('*/api/slow', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const pending = api.get('/api/slow').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(29_000);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1_100);
    const e = await pending;
    expect(e).toBeInstanceOf(NetworkError);
    expect((e as NetworkError).timedOut).toBe(true);
  });

  it('gives mobile browsers 60 s', () => {
    expect(isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(false);
  });
});

describe('routeFailure (spec sections 4 and 8)', () => {
  const e401 = (text: string) => new ApiError(401, 'Unauthorized', text);
  it('routes link states by body text, anywhere', () => {
    expect(routeFailure(e401('Link Expired.'))).toEqual({ kind: 'page', path: '/linkexpired' });
    expect(routeFailure(e401('Link has been Cancelled.'))).toEqual({ kind: 'page', path: '/linkcancelled' });
    expect(routeFailure(e401('Process has completed.'))).toEqual({ kind: 'page', path: '/stepscomplete' });
  });
  it('any other 401: sign out (continue check, product calls) or /notauthorized (phone lookup)', () => {
    expect(routeFailure(e401('Not Authorized'))).toEqual({ kind: 'signOut' });
    expect(routeFailure(new ApiError(401, 'Unauthorized', { error: 'unauthorized', message: 'x' }))).toEqual({
      kind: 'signOut',
    });
    expect(routeFailure(e401('Not Authorized'), { lookup: true })).toEqual({ kind: 'page', path: '/notauthorized' });
  });
  it('403 → /forbidden; network failures and exceptions → the catch-all; other errors are displayed', () => {
    expect(routeFailure(new ApiError(403, 'Forbidden', {}))).toEqual({ kind: 'page', path: '/forbidden' });
    expect(routeFailure(new NetworkError('x'))).toEqual({ kind: 'catchAll', reason: 'network' });
    expect(routeFailure(new TypeError('x'))).toEqual({ kind: 'catchAll', reason: 'exception' });
    const e = new ApiError(500, 'Internal Server Error', 'boom');
    expect(routeFailure(e)).toEqual({ kind: 'display', error: e });
  });
});
