import { LinkMessages } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { LinkStateError } from '../../lib/errors.js';

export interface LinkRow {
  id: string;
  first_name: string;
  last_name: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
  phone: string;
  email: string;
  payor_name: string | null;
  payor_email: string | null;
  procedure_description: string;
  sign_in_method: 'sms' | 'email';
  language: 'en' | 'es';
  is_payment_link_locked: boolean;
  status: 'active' | 'cancelled' | 'completed';
  expires_at: Date;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
  completed_at: Date | null;
  /** Set on demo links created at boot in sandbox mode (migration 0002). */
  demo_label?: string | null;
}

/** What a link is now: 'expired' is derived (active and past expires_at). */
export type LinkState = 'active' | 'expired' | 'cancelled' | 'completed';

export function linkState(link: Pick<LinkRow, 'status' | 'expires_at'>, now = new Date()): LinkState {
  if (link.status !== 'active') return link.status;
  return new Date(link.expires_at).getTime() <= now.getTime() ? 'expired' : 'active';
}

export async function findLink(q: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<LinkRow | null> {
  if (!/^[A-Za-z0-9_-]{22,64}$/.test(id)) return null;
  const r = await q.query<LinkRow>(`select * from link where id = $1${opts.forUpdate ? ' for update' : ''}`, [id]);
  return r.rows[0] ?? null;
}

/** Generic text for unknown ids and any other refusal: nobody can tell an unknown link from a forbidden one. */
export const LINK_NOT_AUTHORIZED = 'Not Authorized';

/**
 * The link, if it can be used now; otherwise a 401 whose text body the client routes on (spec section 4).
 * Unknown ids get the same generic 401 as any other refusal.
 */
export async function requireUsableLink(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<LinkRow> {
  const link = await findLink(q, id, opts);
  if (!link) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  const state = linkState(link);
  if (state === 'expired') throw new LinkStateError(LinkMessages.expired);
  if (state === 'cancelled') throw new LinkStateError(LinkMessages.cancelled);
  if (state === 'completed') throw new LinkStateError(LinkMessages.completed);
  return link;
}

export interface StepRow {
  id: number;
  link_id: string;
  position: number;
  route_path: string;
  document_url: string | null;
  status_id: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** The spec's linkpaymenthistory: the chosen payment and, once approved, its result. One row per link. */
export interface PaymentRow {
  id: number;
  link_id: string;
  payment_type_id: number;
  payment_source_id: number;
  amount_cents: number;
  status: 'chosen' | 'approved';
  transaction_id: string | null;
  approval_code: string | null;
  card_brand: string | null;
  card_last4: string | null;
  payor_full_name: string | null;
  payor_email: string | null;
  paid_at: Date | null;
  refunded_cents: number;
  /** Migration 0106: how the receipt was sent ('email' | 'sms' | 'none'), and to whom (masked). */
  receipt_channel?: string | null;
  receipt_to?: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function listSteps(q: Queryable, linkId: string): Promise<StepRow[]> {
  const r = await q.query<StepRow>('select * from link_step where link_id = $1 order by position', [linkId]);
  return r.rows;
}

export async function findStep(q: Queryable, id: number): Promise<StepRow | null> {
  const r = await q.query<StepRow>('select * from link_step where id = $1', [id]);
  return r.rows[0] ?? null;
}

export async function findPayment(q: Queryable, linkId: string): Promise<PaymentRow | null> {
  const r = await q.query<PaymentRow>('select * from payment where link_id = $1', [linkId]);
  return r.rows[0] ?? null;
}

/** The patient's personal link: what the coordinator sends and what sign-in e-mails point to. */
export function personalLinkUrl(publicUrl: string, linkId: string): string {
  return `${publicUrl}/auth?id=${encodeURIComponent(linkId)}`;
}
