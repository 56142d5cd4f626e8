import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';

/**
 * Where a console page may call from (CSRF, issue 25, decision 0191). A browser names the page's origin in `Origin`
 * on every POST, PUT and DELETE; clients that are not browsers (the CLI, scripts) send none and are judged by their
 * credentials alone.
 *
 * - `ok`: no Origin, PUBLIC_URL's origin, or — when PUBLIC_URL was not set (sandbox: it defaults to
 *   http://localhost:PORT) — the request's own origin: the scheme and host the browser used to reach this server
 *   (`request.protocol` and `request.host`, which follow X-Forwarded-Proto/-Host only behind a trusted proxy,
 *   TRUST_PROXY). A coordinator may open the console at 127.0.0.1 or the machine's address on the practice network.
 * - `elsewhere`: PUBLIC_URL is set and the page is this server at another address: the console works at PUBLIC_URL
 *   only (its cookie, its links and its CORS are made for that address), so the answer says where to open it.
 * - `foreign`: a page of another site (or an opaque `null` origin): refused as today.
 */
export type ConsoleOriginVerdict = 'ok' | 'elsewhere' | 'foreign';

function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The origin the browser used to reach this server. */
export function requestOrigin(request: FastifyRequest): string | null {
  return request.host ? originOf(`${request.protocol}://${request.host}`) : null;
}

export function judgeConsoleOrigin(config: Config, request: FastifyRequest): ConsoleOriginVerdict {
  const header = request.headers.origin;
  if (header === undefined) return 'ok';
  const origin = originOf(header);
  if (origin === null) return 'foreign';
  if (origin === new URL(config.publicUrl).origin) return 'ok';
  if (origin !== requestOrigin(request)) return 'foreign';
  return config.PUBLIC_URL === undefined ? 'ok' : 'elsewhere';
}

/** The console's address: PUBLIC_URL + /console. */
export const consoleUrl = (config: Config): string => `${config.publicUrl}/console`;

/** Throws the refusal for a verdict that is not `ok`. */
export function assertConsoleOrigin(config: Config, request: FastifyRequest): void {
  const verdict = judgeConsoleOrigin(config, request);
  if (verdict === 'elsewhere') {
    const url = consoleUrl(config);
    throw new AppError('wrong_console_address', `This console is served at ${url}; open it there.`, {
      details: { consoleUrl: url },
    });
  }
  if (verdict === 'foreign') {
    throw new AppError('csrf', 'This request did not come from the console. Reload the page and retry.');
  }
}
