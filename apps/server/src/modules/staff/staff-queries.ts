import type { StaffUser } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';

export type StaffUserRow = Pick<
  Row<'staff_user'>,
  'id' | 'email' | 'name' | 'password_hash' | 'role' | 'created_at' | 'disabled_at'
>;

const STAFF_COLUMNS = ['id', 'email', 'name', 'password_hash', 'role', 'created_at', 'disabled_at'] as const;

export async function findStaffByEmail(q: Queryable, email: string): Promise<StaffUserRow | null> {
  const r = await typed(q)
    .selectFrom('staff_user')
    .select(STAFF_COLUMNS)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return r ?? null;
}

export async function findStaffById(q: Queryable, id: string): Promise<StaffUserRow | null> {
  const r = await typed(q).selectFrom('staff_user').select(STAFF_COLUMNS).where('id', '=', id).executeTakeFirst();
  return r ?? null;
}

/** Null when the e-mail address is taken. */
export async function insertStaffUser(
  q: Queryable,
  u: { email: string; name: string; passwordHash: string; role: StaffUserRow['role'] },
): Promise<StaffUserRow | null> {
  const r = await typed(q)
    .insertInto('staff_user')
    .values({ email: u.email.trim().toLowerCase(), name: u.name, password_hash: u.passwordHash, role: u.role })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning(STAFF_COLUMNS)
    .executeTakeFirst();
  return r ?? null;
}

export function toStaffUser(row: StaffUserRow): StaffUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
