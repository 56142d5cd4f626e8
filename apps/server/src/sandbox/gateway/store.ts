/**
 * The sandbox gateway's state: its own `sandbox_gateway_*` tables in the app's database, reached through the
 * smallest query surface its composer can hand it (the server's Db fits it), and the lookups more than one part of
 * the gateway needs. Card numbers are never stored (brand + last 4 only).
 */
export interface SandboxQueryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
}
export interface SandboxDb extends SandboxQueryable {
  /** Runs fn in one transaction; rolls back when fn throws. */
  transaction<T>(fn: (tx: SandboxQueryable) => Promise<T>): Promise<T>;
}

export const SESSION_MINUTES = 15;

export interface SessionRow {
  token: string;
  merchant_id: string;
  amount_cents: number;
  merchant_txn_id: string | null;
  first_name: string | null;
  last_name: string | null;
  efs_token: string | null;
  expires_at: Date;
  used_at: Date | null;
}

export interface ThreeDSRow {
  id: string;
  session_token: string;
  card_brand: string;
  card_last4: string;
  purchase_amount_cents: number;
  challenge: boolean;
  trans_status: string | null;
  trans_status_reason: string | null;
  eci: string | null;
  authentication_value: string | null;
  ds_trans_id: string;
  acs_trans_id: string;
  message_version: string;
  completed_at: Date | null;
}

export interface TxnRow {
  txn_id: string;
  merchant_id: string;
  merchant_txn_id: string | null;
  amount_cents: number;
  result: '0' | '1';
  result_message: string;
  approval_code: string | null;
  card_brand: string;
  card_last4: string;
  first_name: string | null;
  last_name: string | null;
  avs_response: string | null;
  cvv2_response: string | null;
  eci_ind: string | null;
  three_ds_trans_status: string | null;
  created_at: Date;
  settled_at: Date | null;
  voided_at: Date | null;
}

export interface ReversalRow {
  txn_id: string;
  parent_txn_id: string;
  kind: 'VOID' | 'RETURN';
  amount_cents: number;
  created_at: Date;
}

/** A sale's batch closes at the sandbox's ccsettle call or, failing that, this long after the sale. */
const AUTO_SETTLE_HOURS = 24;
export const isSettled = (t: TxnRow) =>
  t.settled_at !== null || Date.now() - new Date(t.created_at).getTime() >= AUTO_SETTLE_HOURS * 3600_000;

/** A payment session that has neither expired nor been used. */
export async function liveSession(q: SandboxQueryable, token: string): Promise<SessionRow | null> {
  if (!token) return null;
  const r = await q.query<SessionRow>(
    'select * from sandbox_gateway_session where token = $1 and expires_at > now() and used_at is null',
    [token],
  );
  return r.rows[0] ?? null;
}

/** The session a 3-D Secure call belongs to, by the bearer EFS token Checkout.js handed the 3DS SDK. */
export async function sessionByEfs(q: SandboxQueryable, authorization: string | undefined): Promise<SessionRow | null> {
  const efs = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!efs) return null;
  const r = await q.query<SessionRow>(
    'select * from sandbox_gateway_session where efs_token = $1 and expires_at > now()',
    [efs],
  );
  return r.rows[0] ?? null;
}
