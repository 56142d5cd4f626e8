import type { StaffRole, StaffUser } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { hashPassword } from './passwords.js';
import { insertStaffUser, toStaffUser } from './staff-queries.js';

export async function createStaffUser(opts: {
  tx: Queryable;
  actor: Actor;
  email: string;
  name: string;
  password: string;
  role: StaffRole;
}): Promise<StaffUser> {
  const row = await insertStaffUser(opts.tx, {
    email: opts.email,
    name: opts.name,
    passwordHash: await hashPassword(opts.password),
    role: opts.role,
  });
  if (!row) throw new AppError('staff_exists', 'A staff user with this e-mail already exists.');
  await writeAudit(opts.tx, {
    ...opts.actor,
    action: 'staff.created',
    details: { staffUserId: row.id, email: row.email, role: row.role },
  });
  return toStaffUser(row);
}
