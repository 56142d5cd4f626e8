import fs from 'node:fs';
import path from 'node:path';
import { fillPath, type Empty, type RequestOf, type ResponseOf, type Route } from '@paylink/shared';
import type { z } from 'zod';

/** Where the CLI finds the server and its credentials (docs/coordinator.md). */
export interface CliEnv {
  baseUrl: string;
  token: string | undefined;
  tokenSource: string;
}

export function resolveCliEnv(env: NodeJS.ProcessEnv = process.env): CliEnv {
  const baseUrl = (env.PAYLINK_URL?.trim() || `http://localhost:${env.PORT?.trim() || '8080'}`).replace(/\/+$/, '');
  if (env.PAYLINK_ADMIN_TOKEN?.trim()) {
    return { baseUrl, token: env.PAYLINK_ADMIN_TOKEN.trim(), tokenSource: 'PAYLINK_ADMIN_TOKEN' };
  }
  const file = path.resolve(env.PAYLINK_DATA_DIR?.trim() || './data', 'admin-token');
  try {
    const token = fs.readFileSync(file, 'utf8').trim();
    return { baseUrl, token: token || undefined, tokenSource: file };
  } catch {
    return { baseUrl, token: undefined, tokenSource: file };
  }
}

/** A refusal or failure the CLI explains in one sentence and exits non-zero. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
  }
}

function unreachable(env: CliEnv, err: unknown): CliError {
  type Cause = { code?: string; message?: string; errors?: { code?: string }[] };
  const c = (err as { cause?: Cause }).cause;
  const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message ?? (err as Error).message;
  return new CliError(
    `Cannot reach the Paylink server at ${env.baseUrl} (${cause}). Is it running? Start it with \`npm start\`, ` +
      'or point PAYLINK_URL at it.',
  );
}

type Request = { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
type Input<R extends Route> = RequestOf<R>;
type Rest<R extends Route> =
  Empty extends Input<R> ? [input?: Input<R>, opts?: CallOptions] : [input: Input<R>, opts?: CallOptions];
export interface CallOptions {
  /** false for the sign-in that gets a token. */
  auth?: boolean;
  headers?: Record<string, string>;
}

/** The route's zod schema, applied before sending so a bad flag is explained without a round trip. */
function check(schema: z.ZodType | undefined, value: unknown): void {
  const r = schema?.safeParse(value);
  if (!r || r.success) return;
  // The same words and fields the server's 400 would carry.
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  const [key, message] = Object.entries(fields)[0]!;
  throw new CliError(key === '_' ? message : `${key}: ${message}`, fields);
}

function urlOf(route: Route, input: Request): string {
  // Flags not given are left out, as they would be from a query string.
  const query = Object.fromEntries(Object.entries(input.query ?? {}).filter(([, v]) => v !== undefined && v !== ''));
  check(route.params, input.params ?? {});
  check(route.query, query);
  if (input.body !== undefined) check(route.body, input.body);
  const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const path = fillPath(route.path, input.params);
  return q.size ? `${path}?${q}` : path;
}

/**
 * A call of the shared route table (the console's and the staff API's, decision 0123): the input is checked by the
 * route's schemas and sent as given (the server applies its defaults), the answer is parsed by its response schema.
 */
export async function call<R extends Route>(env: CliEnv, route: R, ...[input, opts]: Rest<R>): Promise<ResponseOf<R>> {
  const req = (input ?? {}) as Request;
  const data = await send(env, route.method, urlOf(route, req), req.body, opts);
  const parsed = route.response?.safeParse(JSON.parse(data.toString('utf8') || 'null'));
  if (parsed && !parsed.success) {
    throw new CliError(
      `The server's answer to ${route.method} ${route.path} is not what this CLI expects: is it the same version?`,
    );
  }
  return parsed?.data as ResponseOf<R>;
}

/** A route that answers a file (PDF, CSV): its bytes. */
export async function download<R extends Route>(env: CliEnv, route: R, ...[input, opts]: Rest<R>): Promise<Buffer> {
  const req = (input ?? {}) as Request;
  return send(env, route.method, urlOf(route, req), req.body, opts);
}

async function send(
  env: CliEnv,
  method: Route['method'],
  route: string,
  body: unknown,
  opts: CallOptions = {},
): Promise<Buffer> {
  const auth = opts.auth ?? true;
  if (auth && !env.token) {
    // A server that is not running explains more than a missing token file it would have written.
    await fetch(`${env.baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) }).catch((err: unknown) => {
      throw unreachable(env, err);
    });
    throw new CliError(
      `No admin token. Set PAYLINK_ADMIN_TOKEN, or run this on the machine where the server runs in sandbox mode ` +
        `(it writes ${env.tokenSource}). Get a token with: npm run paylink -- login --email <e-mail>`,
    );
  }
  const url = `${env.baseUrl}${route}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        ...(auth ? { authorization: `Bearer ${env.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw unreachable(env, err);
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.ok) return bytes;
  const text = bytes.toString('utf8');
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  const e = (data && typeof data === 'object' ? data : {}) as { message?: string; fields?: Record<string, string> };
  const message = e.message ?? (typeof data === 'string' && data ? data : res.statusText);
  if (res.status === 401 && auth) {
    throw new CliError(`The server refused the admin token from ${env.tokenSource}: ${message}`);
  }
  if (res.status === 404 && !e.message) {
    throw new CliError(`${url} answered 404: is PAYLINK_URL pointing at a Paylink server?`);
  }
  throw new CliError(`${message} (HTTP ${res.status})`, e.fields);
}
