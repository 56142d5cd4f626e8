import rateLimit from '@fastify/rate-limit';
import { consoleEndpoints } from '@paylink/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { postgresRateLimitStore } from './rate-limit-store.js';
import { AppError } from '../lib/errors.js';

/**
 * The outer, per-IP layer of issue 11 (finding 5). The per-link and per-account limits inside the use cases stay (a
 * code is guessed against one link; a password against one account); this layer stops one address from working
 * through many links or accounts in parallel. Limits are per minute and per group; 0 turns a group off.
 * With REDIS_URL the counters live in Redis, else with DATABASE_URL in PostgreSQL, so several processes share them;
 * if the store is unreachable the layer lets requests through (the inner limits still hold) rather than taking the
 * product down.
 */
export type RateGroup = 'auth' | 'lookup' | 'vitals' | 'staffLogin' | 'cspReport' | 'static' | 'default';

/**
 * Every call that checks a staff password or code (issue 26): the console's sign-in, the CLI's login and the
 * two-factor calls that take a code or the password, and the password's change and reset (issue 29). A new such call
 * belongs here.
 */
export const STAFF_CREDENTIAL_ENDPOINTS = [
  consoleEndpoints.signIn,
  consoleEndpoints.login,
  consoleEndpoints.twoFactorEnable,
  consoleEndpoints.recoveryCodes,
  consoleEndpoints.twoFactorDisable,
  consoleEndpoints.changePassword,
  consoleEndpoints.requestPasswordReset,
  consoleEndpoints.completePasswordReset,
] as const;
const staffCredentialCalls = new Set(STAFF_CREDENTIAL_ENDPOINTS.map((e) => `${e.method} ${e.path}`));

/**
 * Which group a path belongs to. Staff sign-in: the calls above, and every POST under /api/admin or /api/console whose
 * path says login.
 */
export function rateGroup(method: string, url: string): RateGroup {
  const path = url.split('?')[0]!;
  // A file of the built apps (scripts, styles, locales, icons): public, read no data (issue 30).
  if ((method === 'GET' || method === 'HEAD') && !path.startsWith('/api/') && /\.[a-z0-9]+$/i.test(path)) {
    return 'static';
  }
  if (path.startsWith('/api/auth/')) return 'auth';
  if (/^\/api\/patients\/[^/]+\/notoken$/.test(path)) return 'lookup';
  if (path === '/api/vitals') return 'vitals';
  if (path.startsWith('/api/csp-report')) return 'cspReport';
  if (staffCredentialCalls.has(`${method} ${path.replace(/\/+$/, '')}`)) return 'staffLogin';
  if (method === 'POST' && /^\/api\/(admin|console)\/(.*\/)?(login|sign-?in|password[^/]*)(\/|$)/.test(path)) {
    return 'staffLogin';
  }
  return 'default';
}

function rateLimits(config: Config): Record<RateGroup, number> {
  return {
    auth: config.RATE_LIMIT_AUTH_PER_MINUTE,
    lookup: config.RATE_LIMIT_LOOKUP_PER_MINUTE,
    vitals: config.RATE_LIMIT_VITALS_PER_MINUTE,
    staffLogin: config.RATE_LIMIT_STAFF_LOGIN_PER_MINUTE,
    cspReport: config.RATE_LIMIT_CSP_REPORT_PER_MINUTE,
    // The same budget as the pages and API, counted apart (and, on PostgreSQL, per process: see the store).
    static: config.RATE_LIMIT_DEFAULT_PER_MINUTE,
    default: config.RATE_LIMIT_DEFAULT_PER_MINUTE,
  };
}

/**
 * Where the counters live: Redis with REDIS_URL; else PostgreSQL when the database is a server (several processes may
 * share it, issue 26; large budgets are reserved in blocks, decision 0229; the static files' group stays in this
 * process's memory, issue 30); else this process's memory
 * (PGlite: one process per data dir).
 */
export async function registerRateLimits(app: FastifyInstance, config: Config, db: Db): Promise<void> {
  const limits = rateLimits(config);
  const groupOf = (request: FastifyRequest) => rateGroup(request.method, request.url);
  let redis: Redis | undefined;
  if (config.REDIS_URL) {
    redis = new Redis(config.REDIS_URL, {
      connectTimeout: 2000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit store (Redis) unavailable'));
    // Without the offline queue a command sent before the connection is up is skipped (skipOnError): wait for it at
    // boot (bounded by connectTimeout) so the first requests are counted in the shared store too.
    const store = redis;
    await new Promise<void>((resolve) => {
      if (store.status === 'ready') return resolve();
      const done = () => {
        store.off('ready', done);
        store.off('error', done);
        resolve();
      };
      store.once('ready', done);
      store.once('error', done);
      setTimeout(done, 2500).unref();
    });
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: 60_000,
    // One counter per (group, address): a burst on sign-in does not eat the budget for pages, and vice versa.
    keyGenerator: (request) => `${groupOf(request)}:${request.ip}`,
    max: (request) => limits[groupOf(request)] || 1_000_000_000,
    allowList: (request) => limits[groupOf(request)] === 0,
    ...(redis
      ? { redis, nameSpace: config.RATE_LIMIT_REDIS_PREFIX, skipOnError: true }
      : db.kind === 'postgres'
        ? { store: postgresRateLimitStore(db, { local: (key) => key.startsWith('static:') }), skipOnError: true }
        : {}),
    errorResponseBuilder: (request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      // Sign-in answers keep the auth error shape the client reads (spec section 8).
      if (groupOf(request) === 'auth') {
        return new AppError('auth/too-many-requests', `Too many attempts. Try again in ${seconds} seconds.`);
      }
      // Staff sign-in answers keep the throttled shape the console and CLI read (too_many_attempts + retryAfterSeconds).
      if (groupOf(request) === 'staffLogin') {
        return new AppError(
          'too_many_attempts',
          `Too many sign-ins from your address. Wait ${seconds} seconds and try again.`,
          { retryAfterSeconds: seconds },
        );
      }
      return new AppError('rate_limited', `Too many requests from your address. Try again in ${seconds} seconds.`);
    },
  });
}
