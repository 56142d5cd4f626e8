import type { StaffListItem, StaffRole } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import type { Row } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { hashPassword } from './passwords.js';
import { revokeEverything } from './staff-sessions.js';
import { randomCode } from './totp.js';
import { resetTwoFactor } from './two-factor.js';

const SELECT = `select id, email, name, role, created_at, disabled_at, last_sign_in_at,
  totp_enabled_at is not null as two_factor from staff_user`;

type StaffRow = Pick<
  Row<'staff_user'>,
  'id' | 'email' | 'name' | 'role' | 'created_at' | 'disabled_at' | 'last_sign_in_at'
> & { two_factor: boolean };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toItem = (r: StaffRow): StaffListItem => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  createdAt: iso(r.created_at)!,
  disabledAt: iso(r.disabled_at),
  lastSignInAt: iso(r.last_sign_in_at),
  twoFactorEnabled: r.two_factor,
});

export async function listStaff(q: Queryable): Promise<StaffListItem[]> {
  return (await q.query<StaffRow>(`${SELECT} order by disabled_at nulls first, lower(name), email`)).rows.map(toItem);
}

async function findItem(q: Queryable, id: string): Promise<StaffRow> {
  const r = await q.query<StaffRow>(`${SELECT} where id = $1`, [id]);
  if (!r.rows[0]) throw notFound('No staff user with this id.');
  return r.rows[0];
}

/** An admin changes a staff user. Nobody can take away the last active admin (the practice would be locked out). */
export async function updateStaff(
  q: Queryable,
  opts: {
    actor: Actor;
    actingUserId: string;
    id: string;
    changes: { name?: string; role?: StaffRole; disabled?: boolean; password?: string };
  },
): Promise<StaffListItem> {
  const before = await findItem(q, opts.id);
  await q.query('select id from staff_user where id = $1 for update', [opts.id]);
  const c = opts.changes;
  const losesAdmin =
    before.role === 'admin' && !before.disabled_at && ((c.role && c.role !== 'admin') || c.disabled === true);
  if (losesAdmin) {
    const admins = await q.query<{ n: number }>(
      `select count(*)::int as n from staff_user where role = 'admin' and disabled_at is null and id <> $1`,
      [opts.id],
    );
    if (admins.rows[0]!.n === 0) throw new AppError('last_admin', 'Keep at least one active admin.');
  }
  const sets: string[] = [];
  const params: unknown[] = [opts.id];
  const set = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (c.name !== undefined) set('name', c.name);
  if (c.role !== undefined) set('role', c.role);
  if (c.disabled !== undefined)
    sets.push(c.disabled ? 'disabled_at = coalesce(disabled_at, now())' : 'disabled_at = null');
  if (c.password !== undefined) {
    // A password an admin knows is temporary: the user must choose their own at the next sign-in.
    set('password_hash', await hashPassword(c.password));
    sets.push('password_change_required_at = now()');
  }
  if (sets.length) await q.query(`update staff_user set ${sets.join(', ')} where id = $1`, params);
  // A disabled user, a new role or a new password: every open session and token ends (they sign in again).
  const ended =
    c.disabled === true || (c.role !== undefined && c.role !== before.role) || c.password !== undefined
      ? await revokeEverything(q, opts.id)
      : null;
  await writeAudit(q, {
    ...opts.actor,
    action: 'staff.updated',
    details: {
      staffUserId: opts.id,
      email: before.email,
      ...(c.name !== undefined ? { name: { from: before.name, to: c.name } } : {}),
      ...(c.role !== undefined ? { role: { from: before.role, to: c.role } } : {}),
      ...(c.disabled !== undefined ? { disabled: c.disabled } : {}),
      ...(c.password !== undefined ? { passwordReset: true } : {}),
      ...(ended ? { ended } : {}),
    },
  });
  return toItem(await findItem(q, opts.id));
}

export async function resetStaffTwoFactor(q: Queryable, opts: { actor: Actor; id: string }): Promise<StaffListItem> {
  await findItem(q, opts.id);
  await resetTwoFactor(q, { userId: opts.id, actor: opts.actor });
  return toItem(await findItem(q, opts.id));
}

/**
 * An admin's password reset: a generated temporary password (20 random characters, about 100 bits), answered once and
 * stored only as its hash. The user must choose their own at the next sign-in; every session and CLI token of theirs
 * ends, and unused reset links are spent. Audited (never the password).
 */
export async function resetStaffPassword(
  q: Queryable,
  opts: { actor: Actor; actingUserId: string; id: string },
): Promise<{ temporaryPassword: string; staff: StaffListItem }> {
  const before = await findItem(q, opts.id);
  if (opts.id === opts.actingUserId) {
    throw new AppError('invalid_request', 'Change your own password on the Security screen.');
  }
  const temporaryPassword = randomCode(20, 5);
  await q.query(`update staff_user set password_hash = $2, password_change_required_at = now() where id = $1`, [
    opts.id,
    await hashPassword(temporaryPassword),
  ]);
  await q.query(
    'update staff_password_reset set used_at = now() where staff_user_id = $1 and used_at is null and token_hash is not null',
    [opts.id],
  );
  const ended = await revokeEverything(q, opts.id);
  await writeAudit(q, {
    ...opts.actor,
    action: 'staff.password_reset',
    details: { staffUserId: opts.id, email: before.email, ...ended },
  });
  return { temporaryPassword, staff: toItem(await findItem(q, opts.id)) };
}
