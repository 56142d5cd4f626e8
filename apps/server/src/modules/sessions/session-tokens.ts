import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Queryable } from '../../db/client.js';
import { unauthorized } from '../../lib/errors.js';

/**
 * Patient session tokens: HS256 JWTs bound to one link (sub) and one patient_session row (sid). The row makes
 * revocation work across processes; the JWT's exp makes expiry work without a lookup in the client.
 */
const ISSUER = 'paylink';
const AUDIENCE = 'paylink-patient';
/** patient_session.id is a uuid: anything else is refused before the query (it would be a database error). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
}): Promise<PatientSession & { token: string }> {
  const r = await opts.db.query<{ id: string; expires_at: Date }>(
    `insert into patient_session (link_id, method, expires_at)
     values ($1, $2, now() + make_interval(mins => $3)) returning id, expires_at`,
    [opts.linkId, opts.method, opts.keys.ttlMinutes],
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
    .sign(opts.keys.secret);
  return { token, linkId: opts.linkId, sessionId: row.id, expiresAt };
}

/** Verifies signature, expiry and that the session row is neither revoked nor expired. Throws 401. */
export async function verifySession(opts: {
  db: Queryable;
  keys: SessionKeys;
  token: string;
}): Promise<PatientSession> {
  let linkId: string;
  let sessionId: string;
  try {
    const { payload } = await jwtVerify(opts.token, opts.keys.secret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || !UUID.test(payload.sid)) {
      throw unauthorized();
    }
    linkId = payload.sub;
    sessionId = payload.sid;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized('Your session has expired. Sign in again.');
    throw unauthorized('Sign in to continue.');
  }
  const r = await opts.db.query<{ expires_at: Date }>(
    `select expires_at from patient_session
     where id = $1 and link_id = $2 and revoked_at is null and expires_at > now()`,
    [sessionId, linkId],
  );
  if (r.rowCount === 0) throw unauthorized('Your session has ended. Sign in again.');
  return { linkId, sessionId, expiresAt: new Date(r.rows[0]!.expires_at) };
}

export async function revokeLinkSessions(db: Queryable, linkId: string): Promise<number> {
  const r = await db.query('update patient_session set revoked_at = now() where link_id = $1 and revoked_at is null', [
    linkId,
  ]);
  return r.rowCount;
}
