import { emailSendBodySchema, emailVerifyBodySchema, patientRoutes, smsVerifyBodySchema } from '@paylink/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { AppContext } from '../../context.js';
import { bearerToken, requirePatient } from '../../http/guards.js';
import { route } from '../../http/route.js';
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

/** Sign-in (issue 3): SMS code, e-mailed link, session refresh and sign-out. Errors: `{ error: 'auth/<code>', message }`. */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  route(
    app,
    patientRoutes.authOptions,
    {
      schema: {
        tags,
        security,
        summary: "The link's sign-in method and captcha site key",
      },
    },
    async (request) => getSignInOptions(ctx, { linkId: request.query.linkId }),
  );

  route(
    app,
    patientRoutes.smsSend,
    {
      schema: {
        tags,
        security,
        summary: 'Send a sign-in code to the phone number on file',
      },
    },
    async (request) => sendSmsCode(ctx, { ...request.body, actor: auditContext(request) }),
  );

  route(
    app,
    patientRoutes.smsVerify,
    {
      schema: {
        tags,
        security,
        summary: 'Check the code; sign in',
      },
      attachValidation: true,
    },
    async (request, reply) => {
      authFieldError(request, smsVerifyBodySchema, {
        code: () => new AuthError('auth/invalid-verification-code', 'Enter the 6-digit code from the text message.'),
      });
      const session = await verifySmsCode(ctx, { ...request.body, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  route(
    app,
    patientRoutes.emailSend,
    {
      schema: {
        tags,
        security,
        summary: 'E-mail a sign-in link if the address matches the one on file',
      },
      attachValidation: true,
    },
    async (request) => {
      authFieldError(request, emailSendBodySchema, {
        email: () => new AuthError('auth/invalid-email', 'Enter a valid e-mail address.'),
      });
      return sendEmailLink(ctx, { ...request.body, actor: auditContext(request) });
    },
  );

  route(
    app,
    patientRoutes.emailVerify,
    {
      schema: {
        tags,
        security,
        summary: 'Finish signing in with the e-mailed link',
      },
      attachValidation: true,
    },
    async (request, reply) => {
      authFieldError(request, emailVerifyBodySchema, {
        oobCode: () => new AuthError('auth/invalid-action-code', 'This sign-in link is not valid. Ask for a new one.'),
      });
      const session = await verifyEmailLink(ctx, { ...request.body, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  route(
    app,
    patientRoutes.sessionRefresh,
    {
      schema: {
        tags,
        security: [{ apiKey: [], bearer: [] }],
        summary: 'A new token for a signed-in patient',
      },
      preHandler: requirePatient(ctx),
    },
    async (request, reply) => {
      const session = await refreshSession(ctx, { session: request.patient!, actor: auditContext(request) });
      setSessionCookie(reply, ctx.config, session);
      return sessionAnswer(session);
    },
  );

  route(
    app,
    patientRoutes.logout,
    { schema: { tags, security: [{ apiKey: [], bearer: [] }], summary: 'Sign out' } },
    async (request, reply) => {
      await endSession(ctx, { token: bearerToken(request), actor: auditContext(request) });
      clearSessionCookie(reply, ctx.config);
      return reply.status(204).send();
    },
  );
}
