import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { sql } from 'kysely';
import type { Queryable } from '../db/client.js';
import { unauthorized } from '../lib/errors.js';

/**
 * Patient session tokens: HS256 JWTs bound to one link (sub) and one patient_session row (sid). The row makes
 * revocation work across processes; the JWT's exp makes expiry work without a lookup in the client.
 */
const ISSUER = 'paylink';
const AUDIENCE = 'paylink-patient';
/** patient_session.id is a uuid: anything else is refused before the query (it would be a database error). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The secret as a WebCrypto key, imported once per secret: given raw bytes, jose imports them again on every sign and
 * verify, which was a tenth of a patient read's CPU under load (issue 17).
 */
const hmacKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    hmacKeys.set(secret, key);
  }
  return key;
}

export interface PatientSession {
  linkId: string;
  sessionId: string;
  expiresAt: Date;
}

export interface SessionKeys {
  secret: Uint8Array;
  ttlMinutes: number;
}

export async function issueSession(opts: {
  db: Queryable;
  keys: SessionKeys;
  linkId: string;
  method: 'sms' | 'email' | 'test';
  /**
   * The write that goes with the session (consuming the sign-in code or e-mailed token), run in the same statement
   * (issue 30). Its parameters are numbered from $1.
   */
  consume?: { sql: string; params: unknown[] };
}): Promise<PatientSession & { token: string }> {
  const before = opts.consume?.params ?? [];
  const n = before.length;
  const r = await opts.db.query<{ id: string; expires_at: Date }>(
    `${opts.consume ? `with consumed as (${opts.consume.sql}) ` : ''}insert into patient_session (link_id, method, expires_at)
     values ($${n + 1}, $${n + 2}, now() + make_interval(mins => $${n + 3})) returning id, expires_at`,
    [...before, opts.linkId, opts.method, opts.keys.ttlMinutes],
  );
  const row = r.rows[0]!;
  const expiresAt = new Date(row.expires_at);
  const token = await new SignJWT({ sid: row.id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(opts.linkId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await hmacKey(opts.keys.secret));
  return { token, linkId: opts.linkId, sessionId: row.id, expiresAt };
}

/**
 * What the token itself proves (signature, expiry, issuer): no database read. A claim is not a session until its
 * patient_session row is checked — `verifySession` does that, or a one-statement read checks it in the same query.
 */
export type SessionClaim = PatientSession;

/**
 * Tokens whose signature was checked, per secret, until they expire: a patient's page sends the same token with every
 * call, and the HMAC check was the largest single cost of a read under load. The key is the whole token, so only the
 * very bytes that verified are trusted; expiry is still checked on every use, and the row check is not cached.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, SessionClaim>>();
const VERIFIED_TOKENS_MAX = 10_000;

/** Signature and expiry only; throws 401. */
export async function verifySessionToken(opts: { keys: SessionKeys; token: string }): Promise<SessionClaim> {
  let cache = verifiedTokens.get(opts.keys.secret);
  if (!cache) verifiedTokens.set(opts.keys.secret, (cache = new Map()));
  const known = cache.get(opts.token);
  if (known && known.expiresAt.getTime() > Date.now()) return known;
  if (known) cache.delete(opts.token);
  const claim = await verifySignedToken(opts);
  if (cache.size >= VERIFIED_TOKENS_MAX) cache.delete(cache.keys().next().value!);
  cache.set(opts.token, Object.freeze(claim));
  return claim;
}

async function verifySignedToken(opts: { keys: SessionKeys; token: string }): Promise<SessionClaim> {
  try {
    const { payload } = await jwtVerify(opts.token, await hmacKey(opts.keys.secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !UUID.test(payload.sid)) {
      throw unauthorized();
    }
    return { linkId: payload.sub, sessionId: payload.sid, expiresAt: new Date((payload.exp ?? 0) * 1000) };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized('Your session has expired. Sign in again.');
    throw unauthorized('Sign in to continue.');
  }
}

/** The 401 for a claim whose row is revoked, expired or gone. */
export const sessionEnded = () => unauthorized('Your session has ended. Sign in again.');

/**
 * The row check as a condition on the session table's `alias`: a claim ($sid, $linkId) is a live session. One place
 * for reads that fold it into a query.
 */
export const LIVE_SESSION_WHERE = (alias: string, sid: string, linkId: string) =>
  `${alias}.id = ${sid} and ${alias}.link_id = ${linkId} and ${alias}.revoked_at is null and ${alias}.expires_at > now()`;

/** The row check as a Kysely expression for a read that folds it in: true when the claim's session is live. */
export const liveSessionSql = (claim: Pick<SessionClaim, 'sessionId' | 'linkId'>) =>
  sql<boolean>`exists (select 1 from patient_session s where s.id = ${claim.sessionId}
    and s.link_id = ${claim.linkId} and s.revoked_at is null and s.expires_at > now())`;

/** The row check, as SQL: the live session row's expiry, or no row. */
export const LIVE_SESSION_SQL = (sid: string, linkId: string) =>
  `select s.expires_at from patient_session s where ${LIVE_SESSION_WHERE('s', sid, linkId)}`;

/** Verifies signature, expiry and that the session row is neither revoked nor expired. Throws 401. */
export async function verifySession(opts: {
  db: Queryable;
  keys: SessionKeys;
  token: string;
}): Promise<PatientSession> {
  const claim = await verifySessionToken(opts);
  return checkSessionRow(opts.db, claim);
}

/** The claim's row is live; throws 401 when it is not. */
export async function checkSessionRow(db: Queryable, claim: SessionClaim): Promise<PatientSession> {
  const r = await db.query<{ expires_at: Date }>(LIVE_SESSION_SQL('$1', '$2'), [claim.sessionId, claim.linkId]);
  if (r.rowCount === 0) throw sessionEnded();
  return { ...claim, expiresAt: new Date(r.rows[0]!.expires_at) };
}

export async function revokeLinkSessions(db: Queryable, linkId: string): Promise<number> {
  const r = await db.query('update patient_session set revoked_at = now() where link_id = $1 and revoked_at is null', [
    linkId,
  ]);
  return r.rowCount;
}
