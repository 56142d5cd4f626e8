/**
 * The API server at the network edge for component tests: `fetch` is replaced by a stub that answers from a table of
 * routes ("POST /api/admin/webhooks") and records every request as the server would see it. Our own modules run as
 * they are (the API client, the query cache, the forms); only the outside service is played.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { ConsoleSession, StaffRole } from '../shared/api/contract';

export interface SentRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body parsed (undefined without one). */
  body: unknown;
}
export type Answer = Response | ((req: SentRequest) => Response | Promise<Response>);

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A refusal as the server sends it: `{ error, message, ...extra }`. */
export const refusal = (status: number, error: string, message: string, extra: object = {}) =>
  json({ error, message, ...extra }, status);

/** An answer the test lets go when it wants (to see the loading state in between). */
export function held() {
  let release!: (r: Response) => void;
  const answer = new Promise<Response>((resolve) => (release = resolve));
  return { answer: () => answer, release };
}

export const staffSession = (role: StaffRole, id = '00000000-0000-4000-8000-000000000001'): ConsoleSession => ({
  user: { id, email: `${role}@practice.test`, name: `Test ${role}`, role, twoFactorEnabled: true },
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  idleTimeoutMinutes: 30,
  twoFactor: { enabled: true, required: true, enrolmentRequired: false },
  passwordChangeRequired: false,
  mode: 'sandbox',
});

export interface ApiStub {
  /** Every request so far, in order. */
  requests: SentRequest[];
  /** The requests to one route ("PUT /api/admin/settings"). */
  sent(route: string): SentRequest[];
  /** Adds or replaces the answer of a route. */
  on(route: string, answer: Answer): void;
}

let current: { routes: Map<string, Answer>; requests: SentRequest[]; unhandled: string[] } | null = null;

/**
 * Call once at the top of a test file. Each test starts with a signed-in admin (GET /api/admin/session) and nothing
 * else; a request to a route the test did not answer fails the test.
 */
export function setupApiStub(): ApiStub {
  beforeEach(() => {
    const state = { routes: new Map<string, Answer>(), requests: [] as SentRequest[], unhandled: [] as string[] };
    state.routes.set('GET /api/admin/session', json(staffSession('admin')));
    current = state;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(input instanceof Request ? input.url : String(input), window.location.origin);
      const method = (init.method ?? 'GET').toUpperCase();
      const text = typeof init.body === 'string' ? init.body : undefined;
      const req: SentRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: new Headers(init.headers),
        body: text === undefined ? undefined : JSON.parse(text),
      };
      state.requests.push(req);
      const answer = state.routes.get(`${method} ${url.pathname}`);
      if (!answer) {
        state.unhandled.push(`${method} ${url.pathname}`);
        return refusal(599, 'unhandled_in_test', `No answer for ${method} ${url.pathname}`);
      }
      const res = typeof answer === 'function' ? await answer(req) : answer.clone();
      if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      return res;
    });
  });
  afterEach(() => {
    const unhandled = current?.unhandled ?? [];
    current = null;
    vi.unstubAllGlobals();
    expect(unhandled, 'requests no test answered').toEqual([]);
  });
  const state = () => {
    if (!current) throw new Error('setupApiStub: only inside a test');
    return current;
  };
  return {
    get requests() {
      return state().requests;
    },
    sent: (route) => {
      const [method, path] = route.split(' ');
      return state().requests.filter((r) => r.method === method && r.path === path);
    },
    on: (route, answer) => void state().routes.set(route, answer),
  };
}
