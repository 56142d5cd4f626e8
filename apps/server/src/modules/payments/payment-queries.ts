import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';

/** One row per gateway session token; its id is the ssl_merchant_txn_id the gateway echoes on the transaction. */
export interface AttemptRow {
  id: string;
  link_id: string;
  payment_id: number;
  amount_cents: number;
  gateway: 'converge' | 'sandbox';
  status: 'creating' | 'open' | 'unknown' | 'closed' | 'approved' | 'duplicate' | 'failed';
  session_token: string | null;
  transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** Migration 0100: when the gateway is next asked about this attempt (null = outcome known). */
  reconcile_due_at?: Date | null;
  reconcile_tries?: number;
  needs_attention?: boolean;
  attention_reason?: string | null;
}

/** 24 hex characters: unguessable, and plain enough for any gateway's merchant-reference field. */
export function newAttemptId(): string {
  return randomBytes(12).toString('hex');
}

/** How long a handed-out token is shared by further submits (Converge tokens live about 15 minutes). */
export const TOKEN_REUSE_MINUTES = 10;
/** A 'creating' row older than this belongs to a request that died mid-way. */
export const CREATING_STALE_SECONDS = 60;

export async function findAttempt(q: Queryable, id: string): Promise<AttemptRow | null> {
  if (!/^[A-Za-z0-9]{16,40}$/.test(id)) return null;
  const r = await q.query<AttemptRow>('select * from payment_attempt where id = $1', [id]);
  return r.rows[0] ?? null;
}

/** Retires live attempts that can no longer be shared: stale, expired, or for another amount. */
export async function retireStaleAttempts(q: Queryable, linkId: string, amountCents: number): Promise<void> {
  await q.query(
    `update payment_attempt set status = 'failed', updated_at = now()
     where link_id = $1 and status = 'creating' and created_at < now() - make_interval(secs => $2)`,
    [linkId, CREATING_STALE_SECONDS],
  );
  await q.query(
    `update payment_attempt set status = 'closed', updated_at = now()
     where link_id = $1 and status = 'open' and (created_at < now() - make_interval(mins => $2) or amount_cents <> $3)`,
    [linkId, TOKEN_REUSE_MINUTES, amountCents],
  );
}

export async function findLiveAttempt(q: Queryable, linkId: string): Promise<AttemptRow | null> {
  const r = await q.query<AttemptRow>(
    `select * from payment_attempt where link_id = $1 and status in ('creating', 'open', 'unknown')`,
    [linkId],
  );
  return r.rows[0] ?? null;
}

/** A decline or error was reported: the next submit gets a fresh token. */
export async function closeOpenAttempts(q: Queryable, linkId: string): Promise<number> {
  const r = await q.query(
    `update payment_attempt set status = 'closed', updated_at = now() where link_id = $1 and status = 'open'`,
    [linkId],
  );
  return r.rowCount;
}

/** A token handed out in the last TOKEN_REUSE_MINUTES (or being fetched) that may still charge the card. */
export async function hasLiveToken(q: Queryable, linkId: string): Promise<boolean> {
  const r = await q.query(
    `select 1 from payment_attempt where link_id = $1 and (status = 'creating'
       or (status = 'open' and created_at > now() - make_interval(mins => $2)))`,
    [linkId, TOKEN_REUSE_MINUTES],
  );
  return r.rowCount > 0;
}
