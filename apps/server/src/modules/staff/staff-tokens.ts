import type { StaffRole } from '@paylink/shared';
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { newToken } from '../../lib/ids.js';

/** Staff bearer tokens: `plk_` + 256 random bits. Only a SHA-256 is stored (staff_token.token_hash). */
const hashStaffToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface StaffIdentity {
  userId: string;
  email: string;
  name: string;
  role: StaffRole;
  tokenId: string;
}

export async function issueStaffToken(
  q: Queryable,
  opts: { userId: string; label: string; ttlHours: number | null },
): Promise<{ token: string; expiresAt: Date | null }> {
  const token = `plk_${newToken()}`;
  const r = await q.query<{ expires_at: Date | null }>(
    `insert into staff_token (staff_user_id, token_hash, label, expires_at)
     values ($1, $2, $3, case when $4::int is null then null else now() + make_interval(hours => $4::int) end)
     returning expires_at`,
    [opts.userId, hashStaffToken(token), opts.label, opts.ttlHours],
  );
  return { token, expiresAt: r.rows[0]!.expires_at };
}

/** The staff user behind a token, if the token is unrevoked, unexpired and its user is not disabled. */
export async function verifyStaffToken(q: Queryable, token: string): Promise<StaffIdentity | null> {
  if (!/^plk_[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const r = await q.query<{
    token_id: string;
    user_id: string;
    email: string;
    name: string;
    role: StaffIdentity['role'];
  }>(
    `update staff_token t set last_used_at = now()
     from staff_user u
     where t.token_hash = $1 and u.id = t.staff_user_id and t.revoked_at is null
       and (t.expires_at is null or t.expires_at > now()) and u.disabled_at is null
     returning t.id as token_id, u.id as user_id, u.email, u.name, u.role`,
    [hashStaffToken(token)],
  );
  const row = r.rows[0];
  return row ? { tokenId: row.token_id, userId: row.user_id, email: row.email, name: row.name, role: row.role } : null;
}
