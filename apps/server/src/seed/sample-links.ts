import { createLinkBodySchema, type CreateLinkBody } from '@paylink/shared';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { createLink, type LinkRow } from '../modules/links/index.js';
import { SYSTEM_ACTOR } from '../lib/audit.js';

/** A complete, valid patient (fictional; 555-01xx numbers are reserved for fiction). */
export const samplePatient = {
  firstName: 'Maria',
  lastName: 'Lopez',
  address: '1200 Ocean Avenue',
  city: 'Santa Monica',
  state: 'CA',
  zipCode: '90401',
  phone: '(555) 010-4567',
  email: 'maria.lopez@example.com',
  signInMethod: 'sms',
  language: 'en',
  procedureDescription: 'Rhinoplasty consultation deposit',
} satisfies CreateLinkBody;

/**
 * Creates one link through the same use case as the admin API: for tests, the e2e suite and the demo data.
 * `overrides` are admin-API fields (e.g. `{ isPaymentLinkLocked: true, expiresIn: '2d' }`).
 */
export async function seedLink(
  ctx: { db: Db; config: Pick<Config, 'publicUrl' | 'LINK_DEFAULT_EXPIRY_DAYS'> },
  overrides: Partial<CreateLinkBody> = {},
  opts: { demoLabel?: string; createdBy?: string | null } = {},
): Promise<{ link: LinkRow; url: string }> {
  const input = createLinkBodySchema.parse({ ...samplePatient, ...overrides });
  return ctx.db.transaction((tx) =>
    createLink({
      tx,
      actor: SYSTEM_ACTOR,
      publicUrl: ctx.config.publicUrl,
      input,
      defaultExpiryDays: ctx.config.LINK_DEFAULT_EXPIRY_DAYS,
      createdBy: opts.createdBy ?? null,
      demoLabel: opts.demoLabel ?? null,
    }),
  );
}
