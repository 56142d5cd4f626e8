/**
 * The one API client (spec section 7). Fixed interface:
 *   call(patientEndpoints.x, { params?, query?, body?, auth?, responseType?, signal? }): the typed way (decision 0123):
 *     method and path come from the shared route table, params/query/body and the answer are typed from its schemas
 *     (types only: no zod reaches the browser);
 *   api.get(path, opts) / api.post(path, opts) / api.put(path, opts): the same request, untyped (tests, odd calls);
 *     opts: { query?: Record<string, string|number|boolean|null|undefined>, body?: unknown, auth?: boolean (default
 *             true), responseType?: 'json' | 'text' (default 'json'), signal?: AbortSignal }
 *   → the parsed answer (undefined for 204); throws ApiError { status, statusText, body, code, message } for a non-2xx
 *     answer, or NetworkError when the server could not be reached or did not answer in time (30 s; 60 s on mobile).
 * Every call sends Content-Type JSON (when it has a body), x-api-key (VITE_API_KEY), ngrok-skip-browser-warning and, when auth is true
 * and a token is in memory, Authorization: Bearer. credentials 'same-origin' lets the httpOnly session cookie go too.
 * A GET without a token that index.html's inline script already started (early-calls.ts, decision 0180) takes that
 * answer instead of asking again.
 */

import {
  fillPath,
  type Empty,
  type Endpoint,
  type PatientRoute,
  type RequestOf,
  type ResponseOf,
  type RouteOf,
} from '@paylink/shared';
import { EARLY_CALLS_GLOBAL } from '../early-calls';

export const API_KEY: string = import.meta.env.VITE_API_KEY || 'paylink-sandbox-api-key';
const API_BASE: string = (import.meta.env.VITE_API_BASE || '').replace(/\/+$/, '');

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** Parsed JSON when the answer was JSON, else the text. */
    readonly body: unknown,
  ) {
    super(apiErrorMessage(status, statusText, body));
  }
  /** The machine code of a JSON error answer ({ error, message }), e.g. 'auth/invalid-verification-code'. */
  get code(): string | undefined {
    const b = this.body as { error?: unknown } | null;
    return b && typeof b === 'object' && typeof b.error === 'string' ? b.error : undefined;
  }
  /** The text body (401 link-state answers are plain text: 'Link Expired.' ...). */
  get text(): string {
    return typeof this.body === 'string' ? this.body : '';
  }
}

export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

function apiErrorMessage(status: number, statusText: string, body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  if (typeof body === 'string' && body) return body;
  return `Error ${status} ${statusText}`.trim();
}

let getToken: () => string | undefined = () => undefined;
/** The store registers where the in-memory session token lives. */
export function setAccessTokenGetter(fn: () => string | undefined) {
  getToken = fn;
}

export function isMobileUserAgent(ua = typeof navigator === 'undefined' ? '' : navigator.userAgent): boolean {
  return /Mobi|Android|iPhone|iPad|iPod/i.test(ua);
}
export const requestTimeoutMs = () => (isMobileUserAgent() ? 60_000 : 30_000);

/**
 * The answer to `url` if index.html's inline script started that call (early-calls.ts), once: a promise of the
 * Response, or of null when the script decided not to make it after all (then the caller asks the server itself).
 */
export function takeEarlyCall(url: string): Promise<Response | null> | undefined {
  if (typeof window === 'undefined') return undefined;
  const calls = (window as unknown as Record<string, Record<string, Promise<Response | null>> | undefined>)[
    EARLY_CALLS_GLOBAL
  ];
  const p = calls?.[url];
  if (p) delete calls[url];
  return p;
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The call was aborted.', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type QueryValue = string | number | boolean | null | undefined;
export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  auth?: boolean;
  responseType?: 'json' | 'text';
  signal?: AbortSignal;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.append(k, String(v));
  const s = qs.toString();
  const relative = `${API_BASE}${path}${s ? `?${s}` : ''}`;
  // Absolute, so the same code runs where fetch has no document base (tests in jsdom use Node's fetch).
  return typeof window === 'undefined' ? relative : new URL(relative, window.location.origin).toString();
}

async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    'x-api-key': API_KEY,
    'ngrok-skip-browser-warning': 'true',
  };
  // A JSON content type on an empty body is a 400 in Fastify, so bodiless calls (GET, query-only POST/PUT) omit it.
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = opts.auth === false ? undefined : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const url = buildUrl(path, opts.query);
  // The same request already started by index.html's inline script (early-calls.ts): same headers, no token.
  const early = method === 'GET' && !token && opts.body === undefined ? takeEarlyCall(url) : undefined;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, requestTimeoutMs());
  const onOuterAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onOuterAbort);

  let res: Response;
  let raw: string;
  try {
    const adopted = early ? await untilAborted(early, controller.signal) : null;
    res =
      adopted ??
      (await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        credentials: 'same-origin',
        signal: controller.signal,
      }));
    // An adopted answer's body cannot be cancelled by our signal: stop waiting for it instead.
    raw = await (adopted ? untilAborted(res.text(), controller.signal) : res.text());
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    throw new NetworkError(
      timedOut ? 'The server did not answer in time.' : 'The server could not be reached.',
      timedOut,
    );
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }

  const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
  const parse = () => {
    if (!raw) return undefined;
    if (!isJson) return raw;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  };
  if (!res.ok) throw new ApiError(res.status, res.statusText, parse());
  if (opts.responseType === 'text') return raw as T;
  return parse() as T;
}

export const api = {
  get: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('POST', path, opts),
  put: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('PUT', path, opts),
};

/** How a call goes, beside its input: what RequestOptions has but body and query (those come typed from the route). */
export type CallOptions = Pick<RequestOptions, 'auth' | 'responseType' | 'signal'>;
type PatientRouteOf<E extends Endpoint> = RouteOf<E, PatientRoute>;
type CallInput<E extends Endpoint> = RequestOf<PatientRouteOf<E>> & CallOptions;

/**
 * A call of the route table: `call(patientEndpoints.patientInfo, { params: { linkId } })` → Promise<PatientInfo>.
 * The answer is typed, not parsed (the server validated it against the same schema before sending).
 */
export function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: Empty extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
): Promise<ResponseOf<PatientRouteOf<E>>> {
  const { params, query, body, ...opts } = (input ?? {}) as CallOptions & {
    params?: Record<string, string | number>;
    query?: Record<string, QueryValue>;
    body?: unknown;
  };
  return request(endpoint.method, fillPath(endpoint.path, params), { ...opts, query, body });
}
