import type { StaffRole, StaffUser } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

export interface StaffUserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: StaffRole;
  created_at: Date;
  disabled_at: Date | null;
}

export async function findStaffByEmail(q: Queryable, email: string): Promise<StaffUserRow | null> {
  const r = await q.query<StaffUserRow>('select * from staff_user where email = $1', [email.trim().toLowerCase()]);
  return r.rows[0] ?? null;
}

export async function insertStaffUser(
  q: Queryable,
  u: { email: string; name: string; passwordHash: string; role: StaffRole },
): Promise<StaffUserRow | null> {
  const r = await q.query<StaffUserRow>(
    `insert into staff_user (email, name, password_hash, role) values ($1, $2, $3, $4)
     on conflict (email) do nothing returning *`,
    [u.email.trim().toLowerCase(), u.name, u.passwordHash, u.role],
  );
  return r.rows[0] ?? null;
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
