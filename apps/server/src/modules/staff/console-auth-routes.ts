import {
  CONSOLE_IDLE_TIMEOUT_MINUTES,
  throttledErrorSchema,
  type ConsoleSession,
  consoleRoutes,
} from '@paylink/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { requireStaff } from '../../http/require-staff.js';
import { assertConsoleOrigin } from './console-origin.js';
import { markGuardFirst } from '../../http/guards-first.js';
import { allowEmptyJsonBodies, errorResponses } from '../../http/route-support.js';
import {
  checkStaffCredentials,
  findStaffAuthUser,
  recordSignIn,
  twoFactorRequired,
  type StaffAuthRow,
} from './check-credentials.js';
import {
  ABSOLUTE_HOURS,
  STAFF_COOKIE,
  createStaffSession,
  isEnrolmentOnlySession,
  revokeEverything,
  revokeStaffSession,
} from './staff-sessions.js';
import {
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  twoFactorStatus,
} from './two-factor.js';
import { route } from '../../http/route.js';
import { changeStaffPassword } from './change-password.js';
import { completePasswordReset } from './complete-password-reset.js';
import { requestPasswordReset } from './request-password-reset.js';

const security: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];

/**
 * The console's sign-in: an httpOnly, SameSite=Strict cookie session with a 30-minute idle time-out (docs/console.md),
 * sign-out, sign-out everywhere, and TOTP two-factor enrolment. The CLI keeps its bearer tokens (/api/admin/login).
 */
export async function consoleAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const tags = ['console'];
    const anyStaff = requireStaff(ctx, { allowEnrolmentOnly: true });
    // The session, signing out and changing the password also answer a user whose password an admin reset.
    const ownAccount = requireStaff(ctx, { allowEnrolmentOnly: true, allowPasswordChange: true });
    const secure = ctx.config.publicUrl.startsWith('https:');

    const sessionView = (user: StaffAuthRow, idleExpiresAt: Date, enrolmentOnly: boolean): ConsoleSession => ({
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
        twoFactorEnabled: Boolean(user.totp_enabled_at),
      },
      expiresAt: idleExpiresAt.toISOString(),
      idleTimeoutMinutes: CONSOLE_IDLE_TIMEOUT_MINUTES,
      twoFactor: {
        enabled: Boolean(user.totp_enabled_at),
        required: twoFactorRequired(ctx.config),
        enrolmentRequired: enrolmentOnly && !user.totp_enabled_at,
      },
      passwordChangeRequired: Boolean(user.password_change_required_at),
      mode: ctx.config.mode,
    });
    const clearCookie = (reply: FastifyReply) =>
      reply.clearCookie(STAFF_COOKIE, { path: '/api/admin', httpOnly: true, sameSite: 'strict', secure });
    const currentSession = (request: FastifyRequest) => {
      const a = request.staffAuth;
      if (a?.via !== 'cookie') throw new AppError('not_a_session', 'This call needs the console session cookie.');
      return a;
    };

    // A sign-in from a page of another site is refused (login CSRF); one from this server at another address than
    // PUBLIC_URL is told where the console is, before the password is checked (issue 25, decision 0191).
    const consolePageOnly = markGuardFirst(async (request: FastifyRequest) => assertConsoleOrigin(ctx.config, request));
    route(
      scope,
      consoleRoutes.signIn,
      {
        preHandler: consolePageOnly,
        schema: {
          tags,
          summary: 'Console sign-in: e-mail + password (+ two-factor code) → session cookie',
          description:
            'Sets the httpOnly, SameSite=Strict `paylink_staff` cookie (Path=/api/admin). Answers `code_required` ' +
            'when two-factor is on and no code was sent. Failed sign-ins slow the next try (429 with Retry-After); ' +
            'after 10 wrong codes in 15 minutes codes from the app are refused (403 `two_factor_locked`) until a ' +
            'recovery code signs in or an admin resets two-factor. From a browser page at another address than ' +
            'PUBLIC_URL: 403 `wrong_console_address` with `details.consoleUrl`; from a page of another site: 403 `csrf`.',
          security: [],
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const actor = auditContext(request);
        const result = await checkStaffCredentials({
          db: ctx.db,
          config: ctx.config,
          actor,
          email: request.body.email,
          password: request.body.password,
          code: request.body.code,
          ip: request.ip,
        });
        if (result.kind === 'code_required') return { status: 'code_required' as const };
        const { user, enrolmentRequired } = result;
        const s = await ctx.db.transaction(async (tx) => {
          const created = await createStaffSession(tx, {
            userId: user.id,
            enrolmentOnly: enrolmentRequired,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
          await writeAudit(tx, {
            ...actor,
            actorType: 'staff',
            actorId: user.id,
            action: 'staff.login',
            details: { via: 'console', twoFactor: Boolean(user.totp_enabled_at), enrolmentRequired },
          });
          return created;
        });
        await recordSignIn(ctx.db, user.id);
        reply.setCookie(STAFF_COOKIE, s.token, {
          path: '/api/admin',
          httpOnly: true,
          sameSite: 'strict',
          secure,
          maxAge: ABSOLUTE_HOURS * 3600,
        });
        return { status: 'signed_in' as const, session: sessionView(user, s.idleExpiresAt, enrolmentRequired) };
      },
    );

    route(
      scope,
      consoleRoutes.session,
      {
        preHandler: ownAccount,
        schema: {
          tags,
          summary: 'The signed-in staff user, the idle expiry and two-factor state',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) => {
        const a = currentSession(request);
        const user = await findStaffAuthUser(ctx.db, request.staff!.userId);
        return sessionView(user, a.idleExpiresAt, await isEnrolmentOnlySession(ctx.db, a.sessionId));
      },
    );

    route(
      scope,
      consoleRoutes.signOut,
      {
        preHandler: ownAccount,
        schema: {
          tags,
          summary: 'Sign out (this session)',
          security,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request, reply) => {
        const a = currentSession(request);
        await ctx.db.transaction(async (tx) => {
          await revokeStaffSession(tx, a.sessionId);
          await writeAudit(tx, { ...auditContext(request), action: 'staff.logout' });
        });
        clearCookie(reply);
        return reply.status(204).send(null);
      },
    );

    route(
      scope,
      consoleRoutes.signOutEverywhere,
      {
        preHandler: ownAccount,
        schema: {
          tags,
          summary: 'Sign out everywhere: ends every console session and revokes every staff token of the user',
          security,
          response: errorResponses(401, 403),
        },
      },
      async (request, reply) => {
        await ctx.db.transaction(async (tx) => {
          const n = await revokeEverything(tx, request.staff!.userId);
          await writeAudit(tx, { ...auditContext(request), action: 'staff.logout_everywhere', details: n });
        });
        clearCookie(reply);
        return reply.status(204).send(null);
      },
    );

    route(
      scope,
      consoleRoutes.changePassword,
      {
        preHandler: ownAccount,
        schema: {
          tags,
          summary: 'Change my password: the current one, a new one (12+ characters) and a code when two-factor is on',
          description:
            'Ends every other console session and every staff token of the user (a bearer token that calls it ends ' +
            'too) and e-mails the user. Wrong password: 400 `invalid_credentials`; wrong or missing code: 400 ' +
            '`invalid_code`; the same password again: 400 `password_reused`. Tries are slowed like sign-ins (429).',
          security,
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        await changeStaffPassword(ctx, {
          userId: request.staff!.userId,
          currentPassword: request.body.currentPassword,
          newPassword: request.body.newPassword,
          code: request.body.code,
          actor: auditContext(request),
          sessionId: request.staffAuth?.via === 'cookie' ? request.staffAuth.sessionId : undefined,
          ip: request.ip,
        });
        return reply.status(204).send(null);
      },
    );

    route(
      scope,
      consoleRoutes.requestPasswordReset,
      {
        preHandler: consolePageOnly,
        schema: {
          tags,
          summary:
            'Forgot password: e-mails a single-use link (30 minutes) when the address is an active staff account',
          description:
            'Always answers `accepted`, whether the address is an account or not. At most 3 e-mails per account per ' +
            'hour (more requests send nothing, with the same answer) and 10 requests per IP address per hour (429).',
          security: [],
          response: { 429: throttledErrorSchema, ...errorResponses(400, 403) },
        },
      },
      async (request) =>
        requestPasswordReset(ctx, { email: request.body.email, ip: request.ip, actor: auditContext(request) }),
    );

    route(
      scope,
      consoleRoutes.completePasswordReset,
      {
        preHandler: consolePageOnly,
        schema: {
          tags,
          summary: 'Set a new password with the token of a reset link; ends every session and token of the user',
          description:
            'A used, expired or unknown link: 400 `reset_link_invalid`. Two-factor is asked at the next sign-in.',
          security: [],
          response: { 429: throttledErrorSchema, ...errorResponses(400, 403) },
        },
      },
      async (request, reply) => {
        await completePasswordReset(ctx, {
          token: request.body.token,
          newPassword: request.body.newPassword,
          actor: auditContext(request),
        });
        return reply.status(204).send(null);
      },
    );

    route(
      scope,
      consoleRoutes.twoFactorStatus,
      {
        preHandler: anyStaff,
        schema: {
          tags,
          summary: 'Two-factor state of the signed-in user',
          security,
          response: errorResponses(401),
        },
      },
      async (request) => twoFactorStatus(ctx, request.staff!.userId),
    );

    route(
      scope,
      consoleRoutes.twoFactorSetup,
      {
        preHandler: anyStaff,
        schema: {
          tags,
          summary: 'Start two-factor enrolment: a new secret and its otpauth:// URI (draw it as a QR code)',
          security,
          response: errorResponses(401, 403, 409),
        },
      },
      async (request) => startTwoFactorSetup(ctx, { userId: request.staff!.userId, actor: auditContext(request) }),
    );

    route(
      scope,
      consoleRoutes.twoFactorEnable,
      {
        preHandler: anyStaff,
        schema: {
          tags,
          summary: 'Finish enrolment with a code from the app; answers the recovery codes (shown once)',
          description: 'A session that was limited to enrolment becomes a full session.',
          security,
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) =>
        enableTwoFactor(ctx, {
          userId: request.staff!.userId,
          code: request.body.code,
          actor: auditContext(request),
          sessionId: request.staffAuth?.via === 'cookie' ? request.staffAuth.sessionId : undefined,
          ip: request.ip,
        }),
    );

    route(
      scope,
      consoleRoutes.recoveryCodes,
      {
        preHandler: anyStaff,
        schema: {
          tags,
          summary: 'New recovery codes (the old ones stop working); needs a current code',
          security,
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) =>
        regenerateRecoveryCodes(ctx, {
          userId: request.staff!.userId,
          code: request.body.code,
          actor: auditContext(request),
          ip: request.ip,
        }),
    );

    route(
      scope,
      consoleRoutes.twoFactorDisable,
      {
        preHandler: anyStaff,
        schema: {
          tags,
          summary: 'Turn two-factor off (sandbox mode only); needs the password',
          security,
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request) =>
        disableTwoFactor(ctx, {
          userId: request.staff!.userId,
          password: request.body.password,
          actor: auditContext(request),
          ip: request.ip,
        }),
    );
  });
}
