import fs from 'node:fs';
import path from 'node:path';

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

export async function callApi<T>(
  env: CliEnv,
  method: 'GET' | 'POST' | 'DELETE',
  route: string,
  body?: unknown,
  opts: { auth?: boolean; binary?: boolean; headers?: Record<string, string> } = {},
): Promise<T> {
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
  if (res.ok && opts.binary) return bytes as T;
  const text = bytes.toString('utf8');
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  if (!res.ok) {
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
  return data as T;
}
