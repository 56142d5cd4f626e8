import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from '../lib/errors.js';
import {
  checkSessionRow,
  verifySession,
  verifySessionToken,
  type PatientSession,
  type SessionClaim,
  type SessionKeys,
} from './session-tokens.js';
import type { Queryable } from '../db/client.js';

/** What the patient guards read of the app's context (context.ts sits above http/). */
type GuardContext = { config: { apiKey: string }; db: Queryable; sessionKeys: SessionKeys };

declare module 'fastify' {
  interface FastifyRequest {
    patient?: PatientSession;
    /** A token checked without the database: the route's one statement must check its session row. */
    patientClaim?: SessionClaim;
    staff?: { userId: string; email: string; role: string };
  }
}

/** The cookie the spec names for the session token; the bearer header wins when both are present. */
export const SESSION_COOKIE = 'jwt_authorization';

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Every product call carries the static API key (spec section 7). */
export function requireApiKey(ctx: GuardContext) {
  return async (request: FastifyRequest) => {
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || !safeEqual(key, ctx.config.apiKey)) {
      throw new AppError('invalid_api_key', 'A valid x-api-key header is required.');
    }
  };
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (h && /^Bearer\s+\S+$/i.test(h)) return h.replace(/^Bearer\s+/i, '');
  const c = request.cookies?.[SESSION_COOKIE];
  return c || undefined;
}

/** preHandler: a valid, unrevoked patient session. The route then checks the link with assertLinkAccess. */
export function requirePatient(ctx: GuardContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Sign in to continue.');
    request.patient = await verifySession({ db: ctx.db, keys: ctx.sessionKeys, token });
  };
}

/** A session opens its own link only. */
export function assertLinkAccess(request: FastifyRequest, linkId: string): PatientSession {
  const s = request.patient;
  if (!s) throw unauthorized('Sign in to continue.');
  if (s.linkId !== linkId) throw forbidden();
  return s;
}

/**
 * preHandler for reads that check the session row inside their one statement (issue 17): the token only, no query.
 * Use with `claimForLink`, and only with a use case that takes the claim and refuses a dead row itself.
 */
export function requirePatientClaim(ctx: GuardContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Sign in to continue.');
    request.patientClaim = await verifySessionToken({ keys: ctx.sessionKeys, token });
  };
}

/**
 * The claim, for its own link. Another link's id is refused 403 as `assertLinkAccess` does, after the row check a
 * full session guard would have made first (a revoked token still answers 401, never 403).
 */
export async function claimForLink(ctx: GuardContext, request: FastifyRequest, linkId: string): Promise<SessionClaim> {
  const c = request.patientClaim;
  if (!c) throw unauthorized('Sign in to continue.');
  if (c.linkId !== linkId) {
    await checkSessionRow(ctx.db, c);
    throw forbidden();
  }
  return c;
}
