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
  session_token: string;
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
  /** The stored card a merchant-initiated sale charged (migration 0200). */
  card_token: string | null;
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

/** The session a 3-D Secure call belongs to, by the bearer EFS token Checkout.js handed the 3DS SDK. */
/** The EFS token of a 3-D Secure call's `Authorization: Bearer …` header. */
export const efsToken = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];

export async function sessionByEfs(q: SandboxQueryable, authorization: string | undefined): Promise<SessionRow | null> {
  const efs = efsToken(authorization);
  if (!efs) return null;
  const r = await q.query<SessionRow>(
    'select * from sandbox_gateway_session where efs_token = $1 and expires_at > now()',
    [efs],
  );
  return r.rows[0] ?? null;
}

/**
 * The hosted session's own request to store the card (ssl_get_token / ssl_add_token on transaction_token) rides in
 * the session token the sandbox issues: the low two bits of its first byte. The token stays opaque to its holders and
 * the flags need no column.
 */
export const SESSION_FLAG = { getToken: 1, addToken: 2 } as const;
export function sessionFlags(sessionToken: string): number {
  return (Buffer.from(sessionToken, 'base64')[0] ?? 0) & 3;
}
export function withSessionFlags(raw: Buffer, flags: number): string {
  raw[0] = (raw[0]! & 0xfc) | (flags & 3);
  return raw.toString('base64');
}

/**
 * The sandbox's Card Manager: `sandbox_gateway_card` (migration 0200), one row per stored token, naming the sale that
 * stored it (whose row is the card's source of truth: brand, last 4). Token sales still get a used session row each
 * (the transaction table requires one, `mit:<card token>:<txn id>`) and name their card in `card_token`.
 */
export interface StoredCard {
  token: string;
  merchantId: string;
  /** The sale that stored (or last re-stored) the card. */
  storedByTxnId: string;
  cardBrand: string;
  cardLast4: string;
  firstName: string | null;
  lastName: string | null;
  /** MMYY */
  expiry: string;
}

const CARD_TOKEN_RE = /^\d{16}$/;
export const tokenSaleSession = (cardToken: string, txnId: string) => `mit:${cardToken}:${txnId}`;

/** A hosted sale's row, less what the table fills in. */
export type SaleRow = Omit<TxnRow, 'session_token' | 'created_at' | 'settled_at' | 'voided_at' | 'card_token'> & {
  three_ds_server_trans_id: string | null;
};

/**
 * Claims the session (single use: the no-double-charge guard), records the sale and, when asked, stores its card in
 * Card Manager, in one statement. Null when the session was claimed meanwhile (nothing recorded). Re-storing the same
 * card (a new deposit with it) updates its expiry and the sale it refers to.
 */
export async function recordSale(
  q: SandboxQueryable,
  o: {
    sessionToken: string;
    txn: SaleRow;
    card: { token: string; expiry: string; firstName: string | null; lastName: string | null } | null;
  },
): Promise<TxnRow | null> {
  const t = o.txn;
  const params: unknown[] = [
    o.sessionToken,
    t.txn_id,
    t.merchant_id,
    t.merchant_txn_id,
    t.amount_cents,
    t.result,
    t.result_message,
    t.approval_code,
    t.card_brand,
    t.card_last4,
    t.first_name,
    t.last_name,
    t.avs_response,
    t.cvv2_response,
    t.eci_ind,
    t.three_ds_server_trans_id,
    t.three_ds_trans_status,
  ];
  let card = '';
  if (o.card) {
    params.push(o.card.token, o.card.expiry, o.card.firstName, o.card.lastName);
    card = `, card as (insert into sandbox_gateway_card (token, merchant_id, stored_by_txn_id, expiry, first_name, last_name)
       select $18::text, t.merchant_id, t.txn_id, $19::text, $20::text, $21::text from t
       on conflict (token) do update set stored_by_txn_id = excluded.stored_by_txn_id, expiry = excluded.expiry,
         first_name = excluded.first_name, last_name = excluded.last_name)`;
  }
  const r = await q.query<TxnRow>(
    `with s as (update sandbox_gateway_session set used_at = now()
       where token = $1 and used_at is null and expires_at > now() returning token),
     t as (insert into sandbox_gateway_transaction (txn_id, session_token, merchant_id, merchant_txn_id, amount_cents,
         result, result_message, approval_code, card_brand, card_last4, first_name, last_name, avs_response,
         cvv2_response, eci_ind, three_ds_server_trans_id, three_ds_trans_status)
       select $2::text, s.token, $3::text, $4::text, $5::int, $6::text, $7::text, $8::text, $9::text, $10::text,
         $11::text, $12::text, $13::text, $14::text, $15::text, $16::uuid, $17::text from s returning *)${card}
     select * from t`,
    params,
  );
  return r.rows[0] ?? null;
}

interface StoredCardRow {
  token: string;
  merchant_id: string;
  stored_by_txn_id: string;
  expiry: string;
  first_name: string | null;
  last_name: string | null;
  card_brand: string;
  card_last4: string;
}
const toStoredCard = (r: StoredCardRow): StoredCard => ({
  token: r.token,
  merchantId: r.merchant_id,
  storedByTxnId: r.stored_by_txn_id,
  cardBrand: r.card_brand,
  cardLast4: r.card_last4,
  firstName: r.first_name,
  lastName: r.last_name,
  expiry: r.expiry,
});
const CARD_SELECT = `select c.token, c.merchant_id, c.stored_by_txn_id, c.expiry, c.first_name, c.last_name,
    t.card_brand, t.card_last4
  from sandbox_gateway_card c join sandbox_gateway_transaction t on t.txn_id = c.stored_by_txn_id`;

/** The stored card behind a token, for this merchant only. */
export async function storedCard(q: SandboxQueryable, merchantId: string, token: string): Promise<StoredCard | null> {
  if (!CARD_TOKEN_RE.test(token)) return null;
  const r = await q.query<StoredCardRow>(`${CARD_SELECT} where c.token = $1 and c.merchant_id = $2`, [
    token,
    merchantId,
  ]);
  return r.rows[0] ? toStoredCard(r.rows[0]) : null;
}

/** The card a sale stored (txnquery reports its token and expiry), if it stored one. */
export async function cardStoredBy(q: SandboxQueryable, txnId: string): Promise<StoredCard | null> {
  const r = await q.query<StoredCardRow>(`${CARD_SELECT} where c.stored_by_txn_id = $1`, [txnId]);
  return r.rows[0] ? toStoredCard(r.rows[0]) : null;
}

/**
 * Sales as txnquery reads them, each with the card it stored (an approved hosted sale) or was charged to (a token
 * sale), in one statement rather than one more per sale (issue 30). `where` filters `s`, the sale (CARD_SELECT's `t` is
 * the sale that stored the card).
 */
export async function transactionsWithCards(
  q: SandboxQueryable,
  where: 's.txn_id = $1 and s.merchant_id = $2' | 's.merchant_txn_id = $1 and s.merchant_id = $2',
  params: [string | undefined, string | undefined],
): Promise<{ txn: TxnRow; card: StoredCard | null }[]> {
  const r = await q.query<TxnRow & { stored_card: StoredCardRow | null }>(
    `select s.*, (select to_jsonb(k) from (${CARD_SELECT}
        where case when s.card_token is not null then c.token = s.card_token and c.merchant_id = s.merchant_id
                   else s.result = '0' and c.stored_by_txn_id = s.txn_id end
        limit 1) k) as stored_card
     from sandbox_gateway_transaction s where ${where} order by s.created_at`,
    params,
  );
  return r.rows.map(({ stored_card, ...txn }) => ({
    txn: txn as TxnRow,
    card: stored_card ? toStoredCard(stored_card) : null,
  }));
}
