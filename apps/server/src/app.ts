import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { errorHandler } from './http/errors.js';
import { openApiTransform, openApiTransformObject } from './http/openapi.js';
import { refuseControlChars } from './http/control-chars.js';
import { guardsBeforeValidation } from './http/guards-first.js';
import { recordRoutes } from './http/route-inventory.js';
import { registerRateLimits } from './http/rate-limits.js';
import { requireApiKey } from './http/guards.js';
import { SIGN_IN_METHOD_META, SignInMethods, escapeHtml } from '@paylink/shared';
import {
  WEB_DIST,
  guessLanguage,
  firstScreenPages,
  htmlVariants,
  localePreloadLink,
  pageModulePreloads,
  registerStaticDist,
  sendHtmlVariant,
} from './http/static-assets.js';
import { linkRoutes } from './modules/links/index.js';
import { adminRoutes, staffAdminRoutes } from './modules/staff/index.js';
import { authRoutes, getSignInHint, getSignInScreenValues } from './modules/auth/index.js';
import { devOutboxRoutes } from './modules/outbox/index.js';
import { paymentRoutes, receiptRoutes } from './modules/payments/index.js';
import { patientPlanRoutes, planActionRoutes, planAdminRoutes } from './modules/plans/index.js';
import { appConfigRoutes } from './modules/app-config/index.js';
import { vitalsRoutes } from './modules/vitals/index.js';
import { contractAdminRoutes, documentAdminRoutes } from './modules/signing/index.js';
import { messagingRoutes } from './modules/messaging/index.js';
import { consoleAuthRoutes } from './modules/staff/index.js';
import { consoleRoutes } from './modules/console/index.js';
import { appCspDirectives, reportingEndpoints } from './http/content-security-policy.js';
import { readScriptInventory } from './http/script-inventory.js';
import { complianceRoutes } from './modules/security/index.js';
import { installIdempotency } from './modules/idempotency/index.js';
import { refundRoutes, devSettleRoutes, exportRoutes } from './modules/refunds/index.js';
import { webhookRoutes, emitWebhookForAudit } from './modules/webhooks/index.js';
import { evidenceRoutes } from './modules/evidence/index.js';
import { addAuditListener, auditContext } from './lib/audit.js';
import { AuditBatch } from './lib/audit-batch.js';
import { fastifyTrustProxy } from './lib/trust-proxy.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The patient reads' audit rows, committed in groups (decision 0179); one per app, closed with it. */
    auditBatch: AuditBatch;
  }
}

/** The practice console (apps/console), served under /console with its own index.html for client routing. */
const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

/** Paths under /api that do not take the product API key (they have their own credentials or none). */
const API_KEY_EXEMPT = [
  /^\/api\/admin(\/|$)/,
  /^\/api\/dev(\/|$)/,
  /^\/api\/docs(\/|$)/,
  // Browsers send CSP violation reports without our headers.
  /^\/api\/csp-report$/,
  // Twilio's webhooks carry X-Twilio-Signature instead (issue 14).
  /^\/api\/webhooks\/twilio\//,
];

/** Log redaction: credentials and anything card-shaped never reach the logs. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * The composition root: one Fastify app built from config, with security headers, the API key gate, the error
 * handler, every module's routes, the built web app and /locales.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log.child({}, { redact: REDACT }) as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: ctx.config.BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(ctx.config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  recordRoutes(app);

  const webDist = ctx.config.WEB_DIST_DIR ?? WEB_DIST;
  const inventory = readScriptInventory(webDist);
  // Security headers on every answer. helmet's middleware is built once: @fastify/helmet builds it again on every
  // request (parsing the whole CSP each time), a measurable share of a patient read's CPU (issue 17, decision 0178).
  const securityHeaders = helmet({
    // The whole policy is spelled out (no helmet defaults) so the tamper check can compare it directive by directive.
    contentSecurityPolicy: { useDefaults: false, directives: appCspDirectives(ctx.config, inventory) },
    crossOriginEmbedderPolicy: false,
    // The gateway's and signing service's scripts and frames live on their own origins.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()));
  await app.register(cors, {
    origin: [ctx.config.publicUrl],
    credentials: true,
    allowedHeaders: ['content-type', 'x-api-key', 'authorization', 'ngrok-skip-browser-warning', 'idempotency-key'],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Paylink API',
        version: '1.0.0',
        description: 'Patient payment links (spec section 7) and the admin API.',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [{ url: ctx.config.publicUrl, description: 'This Paylink server (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer' },
          staffCookie: { type: 'apiKey', in: 'cookie', name: 'paylink_staff' },
        },
      },
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });

  // Issue 11: no control characters in any input; staff tokens are checked before the body (401 before 400); no
  // API answer is cached (they carry patient or staff data).
  refuseControlChars(app);
  await registerRateLimits(app, ctx.config, ctx.db);
  guardsBeforeValidation(app);
  const reporting = reportingEndpoints(ctx.config);
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    else reply.header('reporting-endpoints', reporting);
  });

  const apiKey = requireApiKey(ctx);
  app.addHook('onRequest', async (request) => {
    const url = request.url.split('?')[0]!;
    if (!url.startsWith('/api/') || request.method === 'OPTIONS') return;
    if (API_KEY_EXEMPT.some((re) => re.test(url))) return;
    await apiKey(request);
  });

  // Liveness and readiness in one answer: the process is up; 503 while the database cannot be reached.
  const health = async (_req: unknown, reply: FastifyReply) => {
    const up = await Promise.race([
      ctx.db.query('select 1').then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => setTimeout(r, 3000, false).unref()),
    ]);
    return reply
      .status(up ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down' });
  };
  app.get('/healthz', { schema: { hide: true } }, health);
  app.get('/readyz', { schema: { hide: true } }, health);

  installIdempotency(app, ctx);
  addAuditListener(emitWebhookForAudit);
  // Through ctx.db at each insert, as the routes read it per request. Closing the app writes what is queued (or fails
  // those reads with 503) and refuses later rows; the database closes after the app.
  const auditBatch = new AuditBatch(() => ctx.db);
  app.decorate('auditBatch', auditBatch);
  app.addHook('onClose', () => auditBatch.close());
  for (const register of routeModules) await register(app, ctx);

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  await registerConsoleApp(app);
  await registerWebApp(app, ctx, webDist);
  return app;
}

/** Each module contributes `async (app, ctx) => { ...routes }`. */
export type RouteModule = (app: FastifyInstance, ctx: AppContext) => Promise<void>;
const routeModules: RouteModule[] = [
  linkRoutes,
  adminRoutes,
  authRoutes,
  devOutboxRoutes,
  paymentRoutes,
  patientPlanRoutes,
  appConfigRoutes,
  vitalsRoutes,
  documentAdminRoutes,
  contractAdminRoutes,
  refundRoutes,
  receiptRoutes,
  devSettleRoutes,
  webhookRoutes,
  evidenceRoutes,
  exportRoutes,
  messagingRoutes,
  consoleAuthRoutes,
  consoleRoutes,
  staffAdminRoutes,
  complianceRoutes,
  planAdminRoutes,
  planActionRoutes,
];

/**
 * The built console: its files under /console/; every other GET under /console answers its index.html so deep links
 * (/console/links/abc) work after a reload. A second @fastify/static instance, so decorateReply is off.
 */
async function registerConsoleApp(app: FastifyInstance) {
  const indexFile = path.join(CONSOLE_DIST, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    // Same serving rules as the patient app (precompressed, immutable hashed assets); its own prefix.
    await registerStaticDist(app, { root: CONSOLE_DIST, prefix: '/console/', decorateReply: false });
  }
  const index = async (_request: unknown, reply: FastifyReply) => {
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The console is not built yet: run `npm run build`.');
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await fs.promises.readFile(indexFile));
  };
  app.get('/console', { schema: { hide: true } }, index);
  app.get('/console/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0]!;
    if (url.startsWith('/console/assets/') || /\.[a-z0-9]+$/i.test(url)) {
      return reply.status(404).type('text/plain').send('Not Found');
    }
    return index(request, reply);
  });
}

/** The built web app: static files, /locales, and index.html for every other non-API GET (client routing). */
async function registerWebApp(app: FastifyInstance, ctx: AppContext, webDist: string) {
  const hasBuild = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    // Precompressed Brotli/gzip by negotiation; immutable hashed assets; index.html and /locales revalidated.
    await registerStaticDist(app, { root: webDist });
  }
  const pagePreloads = pageModulePreloads(webDist);
  // /auth?id=… names the link's sign-in method in its HTML, so its frame shows the instruction (decision 0185).
  const signInPage = htmlVariants(
    path.join(webDist, 'index.html'),
    Object.fromEntries(SignInMethods.map((m) => [m, `<meta name="${SIGN_IN_METHOD_META}" content="${m}" />`])),
  );
  // …and its first screen, title, instruction and form, as static HTML painted before any script (decision 0226).
  const firstScreen = firstScreenPages(webDist);
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0]!;
    if (url.startsWith('/api/') || request.method !== 'GET') {
      return reply.status(404).send({ error: 'not_found', message: `No route ${request.method} ${url}.` });
    }
    if (url.startsWith('/locales/') || /\.[a-z0-9]+$/i.test(url)) {
      return reply.status(404).type('text/plain').send('Not Found');
    }
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    // The first i18n namespace and the page's own chunks download alongside the entry, not after it runs.
    const links = [localePreloadLink(guessLanguage(request)), ...pagePreloads(url)];
    reply.header('link', links.join(', '));
    if (url === '/auth') {
      const query = request.query as Record<string, unknown>;
      const hint = await getSignInHint(ctx, { linkId: query.id, oobCode: query.oobCode });
      const method = hint?.method;
      if (hint) {
        const values = await getSignInScreenValues(ctx, {
          linkId: String(query.id),
          method: hint.method,
          actor: auditContext(request),
        });
        // The masked phone goes in the head too: the app takes it from there instead of asking again.
        const phone = values?.phone === undefined ? '' : ` data-phone="${escapeHtml(values.phone)}"`;
        // The app's order as far as a server sees it: ?lng=, the i18next cookie, the browser's languages, then the
        // html lang, which is the link's language here.
        const lng = guessLanguage(request, hint.language);
        const screen =
          values &&
          (await firstScreen({
            page: hint.method === 'sms' ? 'authSms' : 'authEmail',
            lng,
            values,
            headTag: `<meta name="${SIGN_IN_METHOD_META}" content="${hint.method}"${phone} />`,
            acceptEncoding: request.headers['accept-encoding'],
          }));
        if (screen) {
          reply.header('link', [localePreloadLink(lng), ...pagePreloads(url)].join(', '));
          return sendHtmlVariant(request, reply, screen, true);
        }
      }
      const page = method && (await signInPage(method, request.headers['accept-encoding']));
      if (page) return sendHtmlVariant(request, reply, page);
    }
    return reply.sendFile('index.html');
  });
}
