import { createHash } from 'node:crypto';
import type { StaffRole } from '@paylink/shared';
import { CONSOLE_IDLE_TIMEOUT_MINUTES } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { newToken } from '../../lib/ids.js';

/** The console's session cookie: httpOnly, SameSite=Strict, Path=/api/admin, Secure when PUBLIC_URL is https. */
export const STAFF_COOKIE = 'paylink_staff';
export const ABSOLUTE_HOURS = 12;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface StaffSession {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  role: StaffRole;
  enrolmentOnly: boolean;
  /** An admin reset the password: only the session, sign-out and change-password calls answer. */
  passwordChangeRequired: boolean;
  idleExpiresAt: Date;
}

export async function createStaffSession(
  q: Queryable,
  opts: { userId: string; enrolmentOnly: boolean; ip?: string; userAgent?: string },
): Promise<{ token: string; sessionId: string; idleExpiresAt: Date }> {
  const token = `pls_${newToken()}`;
  const r = await q.query<{ id: string; idle_expires_at: Date }>(
    `insert into staff_session (staff_user_id, token_hash, idle_expires_at, absolute_expires_at, enrolment_only, ip,
       user_agent)
     values ($1, $2, now() + make_interval(mins => $3), now() + make_interval(hours => $4), $5, $6, $7)
     returning id, idle_expires_at`,
    [
      opts.userId,
      hash(token),
      CONSOLE_IDLE_TIMEOUT_MINUTES,
      ABSOLUTE_HOURS,
      opts.enrolmentOnly,
      opts.ip ?? null,
      (opts.userAgent ?? '').slice(0, 300),
    ],
  );
  return { token, sessionId: r.rows[0]!.id, idleExpiresAt: r.rows[0]!.idle_expires_at };
}

/**
 * The live session behind a cookie token. `touch` moves the idle expiry to now + 30 min (never past the absolute
 * expiry); background polls pass touch=false so an unattended console still times out.
 */
export async function verifyStaffSession(
  q: Queryable,
  token: string,
  opts: { touch: boolean },
): Promise<StaffSession | null> {
  if (!/^pls_[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const r = await q.query<{
    id: string;
    user_id: string;
    email: string;
    name: string;
    role: StaffRole;
    enrolment_only: boolean;
    password_change_required: boolean;
    idle_expires_at: Date;
  }>(
    `update staff_session s set
       last_seen_at = case when $2 then now() else s.last_seen_at end,
       idle_expires_at = case when $2 then least(now() + make_interval(mins => $3), s.absolute_expires_at)
                         else s.idle_expires_at end
     from staff_user u
     where s.token_hash = $1 and u.id = s.staff_user_id and s.revoked_at is null and u.disabled_at is null
       and s.idle_expires_at > now() and s.absolute_expires_at > now()
     returning s.id, u.id as user_id, u.email, u.name, u.role, s.enrolment_only,
       u.password_change_required_at is not null as password_change_required, s.idle_expires_at`,
    [hash(token), opts.touch, CONSOLE_IDLE_TIMEOUT_MINUTES],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    sessionId: row.id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    enrolmentOnly: row.enrolment_only,
    passwordChangeRequired: row.password_change_required,
    idleExpiresAt: new Date(row.idle_expires_at),
  };
}

/** An enrolment-only session may do nothing but set up two-factor. */
export async function isEnrolmentOnlySession(q: Queryable, sessionId: string): Promise<boolean> {
  const s = await typed(q)
    .selectFrom('staff_session')
    .select('enrolment_only')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return s.enrolment_only;
}

export async function revokeStaffSession(q: Queryable, sessionId: string): Promise<void> {
  await q.query('update staff_session set revoked_at = now() where id = $1 and revoked_at is null', [sessionId]);
}

/**
 * Sign out everywhere (and on deactivation, a 2FA reset, or two-factor turned on): every session and every token of
 * the user; `keepSessionId` spares the console session that asked (turning two-factor on).
 */
export async function revokeEverything(
  q: Queryable,
  userId: string,
  opts: { keepSessionId?: string } = {},
): Promise<{ sessions: number; tokens: number }> {
  const s = await q.query(
    `update staff_session set revoked_at = now()
     where staff_user_id = $1 and revoked_at is null and id is distinct from $2::uuid`,
    [userId, opts.keepSessionId ?? null],
  );
  const t = await q.query('update staff_token set revoked_at = now() where staff_user_id = $1 and revoked_at is null', [
    userId,
  ]);
  return { sessions: s.rowCount ?? 0, tokens: t.rowCount ?? 0 };
}
