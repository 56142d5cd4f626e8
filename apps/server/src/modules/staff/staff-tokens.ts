import type { StaffRole } from '@paylink/shared';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
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
  const r = await typed(q)
    .insertInto('staff_token')
    .values({
      staff_user_id: opts.userId,
      token_hash: hashStaffToken(token),
      label: opts.label,
      expires_at: opts.ttlHours === null ? null : sql<Date>`now() + make_interval(hours => ${opts.ttlHours}::int)`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { token, expiresAt: r.expires_at };
}

/** The staff user behind a token, if the token is unrevoked, unexpired and its user is not disabled. */
export async function verifyStaffToken(q: Queryable, token: string): Promise<StaffIdentity | null> {
  if (!/^plk_[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await typed(q)
    .updateTable('staff_token as t')
    .from('staff_user as u')
    .set({ last_used_at: sql`now()` })
    .where('t.token_hash', '=', hashStaffToken(token))
    .whereRef('u.id', '=', 't.staff_user_id')
    .where('t.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', sql<Date>`now()`)]))
    .where('u.disabled_at', 'is', null)
    .returning(['t.id as token_id', 'u.id as user_id', 'u.email', 'u.name', 'u.role'])
    .executeTakeFirst();
  return row ? { tokenId: row.token_id, userId: row.user_id, email: row.email, name: row.name, role: row.role } : null;
}
