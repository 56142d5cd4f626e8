import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { createTestDb } from './test-db.js';
import { issueSession } from '../../src/http/session-tokens.js';
import { loadProviders } from '../../src/providers/index.js';
import { signingStepDocuments } from '../../src/modules/signing/prepare-step-documents.js';
import { linkPayments } from '../../src/modules/payments/link-payments.js';
import { linkPlans } from '../../src/modules/plans/link-plans.js';
import { staffAccess } from '../../src/modules/staff/staff-access.js';

/**
 * A real app on a fresh, migrated database (PGlite in memory, or a new database on DATABASE_URL's server), with
 * sandbox providers. For integration tests: use app.inject() or app.listen().
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<{
  app: FastifyInstance;
  ctx: AppContext;
  close: () => Promise<void>;
}> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PAYLINK_DATA_DIR: `./.tmp/test-${process.pid}`,
    // Integration tests call from one address many times a minute; the per-IP layer has its own tests.
    RATE_LIMIT_DEFAULT_PER_MINUTE: '0',
    RATE_LIMIT_AUTH_PER_MINUTE: '0',
    RATE_LIMIT_LOOKUP_PER_MINUTE: '0',
    RATE_LIMIT_VITALS_PER_MINUTE: '0',
    RATE_LIMIT_STAFF_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_CSP_REPORT_PER_MINUTE: '0',
    ...env,
  });
  const db = await createTestDb();
  const providers = await loadProviders({ config, db });
  const plans = linkPlans({ db, config });
  const ctx: AppContext = {
    config,
    db,
    log: pino({ level: config.LOG_LEVEL }),
    sessionKeys: { secret: new TextEncoder().encode('test-session-secret-0123456789abcdef'), ttlMinutes: 60 },
    providers,
    stepDocuments: signingStepDocuments({ config, providers }),
    linkPayments: linkPayments({ db, providers, plans }),
    linkPlans: plans,
    staffAccess: staffAccess({ db, config }),
  };
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** Mints a patient session token for a link, as sign-in would. */
export async function mintPatientToken(ctx: AppContext, linkId: string): Promise<string> {
  const s = await issueSession({ db: ctx.db, keys: ctx.sessionKeys, linkId, method: 'test' });
  return s.token;
}

/** The headers every product call sends (spec section 7). */
export function apiHeaders(ctx: AppContext, token?: string): Record<string, string> {
  return {
    'x-api-key': ctx.config.apiKey,
    'ngrok-skip-browser-warning': 'true',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}
