import type { CreateLinkInput } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
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
  const r = await tx.query<LinkRow>(
    `insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, payor_name,
       payor_email, procedure_description, sign_in_method, language, is_payment_link_locked, expires_at, created_by,
       demo_label)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now() + make_interval(mins => $16), $17,
       $18)
     returning *`,
    [
      id,
      input.firstName,
      input.lastName,
      input.address,
      input.city,
      input.state,
      input.zipCode,
      input.phone,
      input.email,
      input.payorName || null,
      input.payorEmail?.toLowerCase() || null,
      input.procedureDescription,
      input.signInMethod,
      input.language,
      input.isPaymentLinkLocked,
      minutes,
      opts.createdBy ?? null,
      opts.demoLabel ?? null,
    ],
  );
  const link = r.rows[0]!;
  await writeAudit(tx, {
    ...opts.actor,
    action: 'link.created',
    linkId: link.id,
    details: { signInMethod: link.sign_in_method, locked: link.is_payment_link_locked, expiresAt: link.expires_at },
  });
  return { link, url: personalLinkUrl(opts.publicUrl, link.id) };
}
