import {
  authOptionsQuerySchema,
  authOptionsSchema,
  emailSendBodySchema,
  emailSendResultSchema,
  emailVerifyBodySchema,
  sessionResultSchema,
  smsSendBodySchema,
  smsSendResultSchema,
  smsVerifyBodySchema,
} from '@paylink/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerToken, requirePatient } from '../../http/guards.js';
import { auditContext } from '../../lib/audit.js';
import { AuthError } from './auth-errors.js';
import { endSession } from './end-session.js';
import { getSignInOptions } from './get-sign-in-options.js';
import { refreshSession } from './refresh-session.js';
import { sendEmailLink } from './send-email-link.js';
import { sendSmsCode } from './send-sms-code.js';
import { clearSessionCookie, sessionAnswer, setSessionCookie } from './session-cookie.js';
import { verifyEmailLink } from './verify-email-link.js';
import { verifySmsCode } from './verify-sms-code.js';

const tags = ['sign-in'];
const security = [{ apiKey: [] }];

/**
 * A malformed code, address or oobCode is answered with the provider-style code the /auth page shows (not the
 * generic invalid_request); any other invalid field keeps the generic 400.
 */
function authFieldError(request: FastifyRequest, schema: ZodType, fields: Record<string, () => AuthError>): void {
  if (!request.validationError) return;
  const parsed = schema.safeParse(request.body);
  const field = parsed.success ? undefined : parsed.error.issues[0]?.path[0];
  if (typeof field === 'string' && fields[field]) throw fields[field]();
  throw request.validationError;
}

/** Rate-limit refusals carry Retry-After; everything else goes to the app's error handler untouched. */
async function withRetryAfter<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AuthError && err.retryAfterSeconds) reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
}

/** Sign-in (issue 3): SMS code, e-mailed link, session refresh and sign-out. Errors: `{ error: 'auth/<code>', message }`. */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/auth/options',
    {
      schema: {
        tags,
        security,
        summary: "The link's sign-in method and captcha site key",
        querystring: authOptionsQuerySchema,
        response: { 200: authOptionsSchema },
      },
    },
    async (request) => getSignInOptions(ctx, { linkId: request.query.linkId }),
  );

  r.post(
    '/api/auth/sms/send',
    {
      schema: {
        tags,
        security,
        summary: 'Send a sign-in code to the phone number on file',
        body: smsSendBodySchema,
        response: { 200: smsSendResultSchema },
      },
    },
    async (request, reply) =>
      withRetryAfter(reply, () => sendSmsCode(ctx, { ...request.body, actor: auditContext(request) })),
  );

  r.post(
    '/api/auth/sms/verify',
    {
      schema: {
        tags,
        security,
        summary: 'Check the code; sign in',
        body: smsVerifyBodySchema,
        response: { 200: sessionResultSchema },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      authFieldError(request, smsVerifyBodySchema, {
        code: () =>
          new AuthError(400, 'auth/invalid-verification-code', 'Enter the 6-digit code from the text message.'),
      });
      const session = await verifySmsCode(ctx, { ...request.body, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  r.post(
    '/api/auth/email/send',
    {
      schema: {
        tags,
        security,
        summary: 'E-mail a sign-in link if the address matches the one on file',
        body: emailSendBodySchema,
        response: { 200: emailSendResultSchema },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      authFieldError(request, emailSendBodySchema, {
        email: () => new AuthError(400, 'auth/invalid-email', 'Enter a valid e-mail address.'),
      });
      return withRetryAfter(reply, () => sendEmailLink(ctx, { ...request.body, actor: auditContext(request) }));
    },
  );

  r.post(
    '/api/auth/email/verify',
    {
      schema: {
        tags,
        security,
        summary: 'Finish signing in with the e-mailed link',
        body: emailVerifyBodySchema,
        response: { 200: sessionResultSchema },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      authFieldError(request, emailVerifyBodySchema, {
        oobCode: () =>
          new AuthError(400, 'auth/invalid-action-code', 'This sign-in link is not valid. Ask for a new one.'),
      });
      const session = await verifyEmailLink(ctx, { ...request.body, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  r.post(
    '/api/auth/session/refresh',
    {
      schema: {
        tags,
        security: [{ apiKey: [], bearer: [] }],
        summary: 'A new token for a signed-in patient',
        response: { 200: sessionResultSchema },
      },
      preHandler: requirePatient(ctx),
    },
    async (request, reply) => {
      const session = await refreshSession(ctx, { session: request.patient!, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  r.post(
    '/api/auth/logout',
    { schema: { tags, security: [{ apiKey: [], bearer: [] }], summary: 'Sign out' } },
    async (request, reply) => {
      await endSession(ctx, { token: bearerToken(request), actor: auditContext(request) });
      clearSessionCookie(reply, ctx.config);
      return reply.status(204).send();
    },
  );
}
