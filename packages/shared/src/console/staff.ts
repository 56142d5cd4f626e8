import { z } from 'zod';
import { newPasswordSchema, staffRoleSchema } from '../admin.js';
import { iso } from './wire.js';

/** A staff member as other records name them (a link's coordinator, a funnel's row). */
export const staffRefSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** Who may have created links (active admins and coordinators, and anyone who created one): the board's filter. */
export const coordinatorListSchema = z.object({ coordinators: z.array(staffRefSchema) });
export type Coordinator = z.infer<typeof staffRefSchema>;

export const staffListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  createdAt: iso,
  disabledAt: iso.nullable(),
  lastSignInAt: iso.nullable(),
  twoFactorEnabled: z.boolean(),
});
export type StaffListItem = z.infer<typeof staffListItemSchema>;
/** GET /api/admin/staff */
export const staffListSchema = z.object({ staff: z.array(staffListItemSchema) });
export const staffParamsSchema = z.object({ id: z.uuid() }).strict();
/** PATCH /api/admin/staff/:id — any subset. Disabling ends the user's sessions and tokens. */
export const updateStaffBodySchema = z
  .object({
    name: z.string().trim().max(200).optional(),
    role: staffRoleSchema.optional(),
    disabled: z.boolean().optional(),
    password: newPasswordSchema.optional(),
  })
  .strict();
// POST /api/admin/staff/:id/reset-2fa (empty body) → staffListItemSchema.
/** POST /api/admin/staff/:id/reset-password (empty body): a generated temporary password, shown once. */
export const staffPasswordResetSchema = z.object({ temporaryPassword: z.string(), staff: staffListItemSchema });
