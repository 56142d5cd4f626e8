import { type ComplianceScriptsResult, consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { errorResponses } from '../../http/route-support.js';
import { appCspDirectives, CSP_REPORT_PATH, serializeCsp } from '../../http/content-security-policy.js';
import { captchaScriptUrl } from '../../providers/captcha/browser-config.js';
import { gatewayBrowserConfig } from '../../providers/gateway/browser-config.js';
import { requireStaff } from '../../http/require-staff.js';
import { WEB_DIST } from '../../http/static-assets.js';
import { readScriptInventory } from '../../http/script-inventory.js';
import { runTamperCheck } from './run-tamper-check.js';
import { listTamperChecks, listCspReports, storeCspReports, type CspReportInput } from './compliance-queries.js';
import { route } from '../../http/route.js';

const STAFF_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { staffCookie: [] }];
const REPORT_TYPES = ['application/csp-report', 'application/reports+json'];

/** Strips the query and fragment of a reported URL: patient links carry their id in the query. */
const bareUrl = (v: unknown) => {
  const s = typeof v === 'string' ? v : '';
  return s.replace(/[?#].*$/, '').slice(0, 500);
};
const text = (v: unknown, max = 200) => (typeof v === 'string' ? v.slice(0, max) : '');

/** Both report formats browsers send: the legacy `report-uri` body and the Reporting API's list. */
function toReports(body: unknown, userAgent: string): CspReportInput[] {
  const legacy = (body as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'];
  const items: Record<string, unknown>[] = legacy
    ? [
        {
          documentURL: legacy['document-uri'],
          blockedURL: legacy['blocked-uri'],
          effectiveDirective: legacy['effective-directive'] ?? legacy['violated-directive'],
          sourceFile: legacy['source-file'],
          lineNumber: legacy['line-number'],
          sample: legacy['script-sample'],
        },
      ]
    : Array.isArray(body)
      ? body
          .filter((r) => (r as { type?: unknown })?.type === 'csp-violation')
          .map((r) => ((r as { body?: unknown }).body ?? {}) as Record<string, unknown>)
      : [];
  if (!legacy && !Array.isArray(body)) throw badRequest('A CSP report must be a csp-report object or a report list.');
  return items.slice(0, 20).map((b) => ({
    documentUri: bareUrl(b.documentURL),
    blockedUri: bareUrl(b.blockedURL),
    effectiveDirective: text(b.effectiveDirective, 100),
    sourceFile: bareUrl(b.sourceFile),
    lineNumber: typeof b.lineNumber === 'number' && Number.isInteger(b.lineNumber) ? b.lineNumber : null,
    sample: text(b.sample, 200),
    userAgent: text(userAgent, 300),
  }));
}

/**
 * PCI DSS 6.4.3 / 11.6.1 (issue 11): the payment page's script inventory for staff, CSP violation reports from
 * browsers, and the tamper check on demand. Admins only: compliance is the practice owner's business.
 */
export async function complianceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireStaff(ctx, { roles: ['admin'] });
  const webDist = ctx.config.WEB_DIST_DIR ?? WEB_DIST;
  const tags = ['compliance'];

  for (const type of REPORT_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(badRequest('The report is not valid JSON.'), undefined);
      }
    });
  }

  r.post(
    CSP_REPORT_PATH,
    {
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        summary: 'Content-Security-Policy violation reports (sent by browsers)',
        description:
          'application/csp-report (report-uri) or application/reports+json (report-to). Rate-limited per IP.',
        security: [],
        body: z.unknown(),
        response: { 204: z.null(), ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const reports = toReports(request.body, String(request.headers['user-agent'] ?? ''));
      await storeCspReports(ctx.db, reports);
      return reply.status(204).send(null);
    },
  );

  route(
    app,
    consoleRoutes.complianceScripts,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Every script the payment page may run, with its integrity and justification (PCI DSS 6.4.3)',
        security: STAFF_SECURITY,
        response: errorResponses(401, 403),
      },
    },
    async () => {
      const inventory = readScriptInventory(webDist);
      const gateway = gatewayBrowserConfig(ctx.config);
      const scripts: ComplianceScriptsResult['scripts'] = (inventory?.assets ?? []).map((a) => ({
        url: a.path,
        owner: 'paylink',
        loadedAs: a.loadedAs,
        integrity: a.integrity,
        bytes: a.bytes,
        purpose: a.loadedAs,
        justification: a.justification,
      }));
      scripts.push(
        {
          url: gateway.checkoutJsUrl,
          owner: 'gateway',
          loadedAs: 'payment step',
          integrity: null,
          bytes: null,
          purpose: 'checkout',
          justification:
            'Converge Checkout.js: sends the card number and CVC from the browser to the gateway; our server never ' +
            'sees them. Versioned by Elavon, so pinned by origin in the CSP and watched by the tamper check.',
        },
        {
          url: gateway.threeDSSdkUrl,
          owner: 'gateway',
          loadedAs: 'payment step',
          integrity: null,
          bytes: null,
          purpose: 'threeDS',
          justification: "Elavon 3-D Secure web SDK: the card issuer's authentication (liability shift).",
        },
      );
      const captchaScript = captchaScriptUrl(ctx.config);
      if (captchaScript) {
        scripts.push({
          url: captchaScript,
          owner: 'captcha',
          loadedAs: 'sign-in page',
          integrity: null,
          bytes: null,
          purpose: 'captcha',
          justification: 'Cloudflare Turnstile: captcha before a sign-in code is sent (not on the payment step).',
        });
      }
      const last = (await listTamperChecks(ctx.db, 1))[0] ?? null;
      return {
        built: !!inventory,
        generatedAt: inventory?.generatedAt ?? null,
        scripts,
        inlineScripts: inventory?.inlineScripts ?? [],
        contentSecurityPolicy: serializeCsp(appCspDirectives(ctx.config, inventory)),
        lastCheck: last,
      };
    },
  );

  route(
    app,
    consoleRoutes.tamperCheck,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Run the payment page tamper check now (PCI DSS 11.6.1)',
        security: STAFF_SECURITY,
        response: errorResponses(401, 403),
      },
    },
    async (request) => {
      const result = await runTamperCheck({ ctx, trigger: 'staff', actor: auditContext(request), webDist });
      return { ...result, trigger: 'staff' as const };
    },
  );

  route(
    app,
    consoleRoutes.tamperChecks,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Recent tamper checks, newest first',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403),
      },
    },
    async (request) => ({ checks: await listTamperChecks(ctx.db, request.query.limit) }),
  );

  route(
    app,
    consoleRoutes.cspReports,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Content-Security-Policy violations reported by browsers, newest first',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403),
      },
    },
    async (request) => listCspReports(ctx.db, request.query.limit),
  );
}
