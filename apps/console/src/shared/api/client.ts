/**
 * The console's one API client: `call(consoleEndpoints.x, { params?, query?, body?, signal?, background?, headers? })`
 * takes method and path from the shared route table and types the input and the answer from its schemas (decision
 * 0123); `api.get/post/...` are the same requests, untyped. The staff session is an httpOnly SameSite=Strict cookie, so every call goes with
 * credentials 'same-origin' and never sees a token; changes carry the CSRF header the server asks for. Errors: ApiError { status, code, message } for a non-2xx answer
 * ({ error, message } bodies), NetworkError when the server could not be reached.
 */

import {
  CONSOLE_BACKGROUND_HEADER,
  CONSOLE_CSRF_HEADER,
  SESSION_EXPIRES_HEADER,
  fillPath,
  type ConsoleRoute,
  type Empty,
  type Endpoint,
  type RequestOf,
  type ResponseOf,
  type RouteOf,
} from './contract';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(messageOf(status, body));
  }
  get code(): string | undefined {
    const b = this.body as { error?: unknown } | null;
    return b && typeof b === 'object' && typeof b.error === 'string' ? b.error : undefined;
  }
  /** Field problems of a 400 answer ({ fields: { "payor.email": "message" } }). */
  get fields(): Record<string, string> {
    const b = this.body as { fields?: unknown } | null;
    return b && typeof b === 'object' && b.fields && typeof b.fields === 'object'
      ? (b.fields as Record<string, string>)
      : {};
  }
  /** Values the console's own sentence for the code needs ({ details: { consoleUrl } }). */
  get details(): Record<string, string> {
    const b = this.body as { details?: unknown } | null;
    return b && typeof b === 'object' && b.details && typeof b.details === 'object'
      ? (b.details as Record<string, string>)
      : {};
  }
}

export class NetworkError extends Error {
  override name = 'NetworkError';
}

function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  if (typeof body === 'string' && body) return body;
  return `Error ${status}`;
}

type QueryValue = string | number | boolean | null | undefined;
export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** A poll, not the person: does not extend the idle time-out on the server. */
  background?: boolean;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** A file sent as the body itself instead of JSON (the contract upload); Content-Type from `headers` or the file. */
  file?: Blob;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') qs.append(k, String(v));
  const s = qs.toString();
  const relative = `${path}${s ? `?${s}` : ''}`;
  return typeof window === 'undefined' ? relative : new URL(relative, window.location.origin).toString();
}

/** Listeners told when any call answers 401 (the session ended elsewhere: signed out everywhere, timed out). */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(fn: () => void): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/** Listeners told the session's new idle expiry (ISO) after every answer that carries it. */
const sessionExpiryListeners = new Set<(expiresAt: string) => void>();
export function onSessionExpiry(fn: (expiresAt: string) => void): () => void {
  sessionExpiryListeners.add(fn);
  return () => sessionExpiryListeners.delete(fn);
}

async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...opts.headers, accept: 'application/json' };
  if (opts.file) headers['content-type'] ||= opts.file.type || 'application/octet-stream';
  else if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // CSRF: the server refuses a cookie-authenticated change without this header (a form on another site cannot set it).
  if (method !== 'GET') headers[CONSOLE_CSRF_HEADER] = '1';
  if (opts.background) headers[CONSOLE_BACKGROUND_HEADER] = '1';
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.file ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new NetworkError('network');
  }
  const expires = res.headers.get(SESSION_EXPIRES_HEADER);
  if (expires) sessionExpiryListeners.forEach((fn) => fn(expires));
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  const body: unknown = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/api/admin/session')) unauthorizedListeners.forEach((fn) => fn());
    throw new ApiError(res.status, body);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T>(path: string, opts?: RequestOptions) => request<T>('POST', path, { body: {}, ...opts }),
  put: <T>(path: string, opts?: RequestOptions) => request<T>('PUT', path, { body: {}, ...opts }),
  patch: <T>(path: string, opts?: RequestOptions) => request<T>('PATCH', path, { body: {}, ...opts }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};

/** How a call goes, beside its input: what RequestOptions has but body and query (those come typed from the route). */
export type CallOptions = Pick<RequestOptions, 'signal' | 'background' | 'headers' | 'file'>;
type ConsoleRouteOf<E extends Endpoint> = RouteOf<E, ConsoleRoute>;
type CallInput<E extends Endpoint> = RequestOf<ConsoleRouteOf<E>> & CallOptions;
/** The body a route takes and the answer it gives, for code that holds them (forms, caches). */
export type BodyOf<E extends Endpoint> = RequestOf<ConsoleRouteOf<E>> extends { body?: infer B } ? B : never;
export type AnswerOf<E extends Endpoint> = ResponseOf<ConsoleRouteOf<E>>;

/** A call of the route table: `call(consoleEndpoints.linkDetail, { params: { id } })` → Promise<ConsoleLinkDetail>. */
export function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: Empty extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
): Promise<ResponseOf<ConsoleRouteOf<E>>> {
  const { params, query, body, ...opts } = (input ?? {}) as CallOptions & {
    params?: Record<string, string | number>;
    query?: Record<string, QueryValue>;
    body?: unknown;
  };
  const path = fillPath(endpoint.path, params);
  // As api.post/put/patch: a change without a body sends {} (Fastify refuses an empty JSON body).
  const sent = body === undefined && endpoint.method !== 'GET' && endpoint.method !== 'DELETE' ? {} : body;
  return request(endpoint.method, path, { ...opts, query, body: sent });
}
