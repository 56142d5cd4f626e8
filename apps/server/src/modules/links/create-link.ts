import type { CreateLinkInput } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { personalLinkUrl, type LinkRow } from './link-queries.js';
import type { Actor } from '../../lib/audit.js';

export interface CreateLinkOptions {
  tx: Queryable;
  actor: Actor;
  publicUrl: string;
  /** Validated input (shared createLinkBodySchema's output). */
  input: CreateLinkInput;
  defaultExpiryDays: number;
  createdBy?: string | null;
  /** Marks demo data created at boot (shown at start, listed like any link). */
  demoLabel?: string | null;
}

/** Creates a link with an unguessable id; the caller owns the transaction (admin API, CLI, boot seeding, tests). */
export async function createLink(opts: CreateLinkOptions): Promise<{ link: LinkRow; url: string }> {
  const { tx, input } = opts;
  const minutes = input.expiresIn ?? opts.defaultExpiryDays * 1440;
  const id = newLinkId();
  const link = await typed(tx)
    .insertInto('link')
    .values({
      id,
      first_name: input.firstName,
      last_name: input.lastName,
      address: input.address,
      city: input.city,
      state: input.state,
      zip_code: input.zipCode,
      phone: input.phone,
      email: input.email,
      payor_name: input.payorName || null,
      payor_email: input.payorEmail?.toLowerCase() || null,
      procedure_description: input.procedureDescription,
      sign_in_method: input.signInMethod,
      language: input.language,
      is_payment_link_locked: input.isPaymentLinkLocked,
      expires_at: sql`now() + make_interval(mins => ${minutes})`,
      created_by: opts.createdBy ?? null,
      demo_label: opts.demoLabel ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeAudit(tx, {
    ...opts.actor,
    action: 'link.created',
    linkId: link.id,
    details: { signInMethod: link.sign_in_method, locked: link.is_payment_link_locked, expiresAt: link.expires_at },
  });
  return { link, url: personalLinkUrl(opts.publicUrl, link.id) };
}
