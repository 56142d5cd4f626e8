import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';

/**
 * One row per gateway session token; its id is the ssl_merchant_txn_id the gateway echoes on the transaction.
 * reconcile_due_at (migration 0100): when the gateway is next asked about this attempt (null = outcome known).
 */
export type AttemptRow = Row<'payment_attempt'>;

/** 24 hex characters: unguessable, and plain enough for any gateway's merchant-reference field. */
export function newAttemptId(): string {
  return randomBytes(12).toString('hex');
}

/** How long a handed-out token is shared by further submits (Converge tokens live about 15 minutes). */
const TOKEN_REUSE_MINUTES = 10;
/** A 'creating' row older than this belongs to a request that died mid-way. */
const CREATING_STALE_SECONDS = 60;

export async function findAttempt(q: Queryable, id: string): Promise<AttemptRow | null> {
  if (!/^[A-Za-z0-9]{16,40}$/.test(id)) return null;
  return (await typed(q).selectFrom('payment_attempt').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Retires live attempts that can no longer be shared: a stale 'creating' row fails; an 'open' one past the reuse
 * window, or for another amount, closes. One statement for both (issue 30).
 */
export async function retireStaleAttempts(q: Queryable, linkId: string, amountCents: number): Promise<void> {
  await typed(q)
    .updateTable('payment_attempt')
    .set({ status: sql`case when status = 'creating' then 'failed' else 'closed' end`, updated_at: sql`now()` })
    .where('link_id', '=', linkId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'creating'),
          eb('created_at', '<', sql<Date>`now() - make_interval(secs => ${CREATING_STALE_SECONDS})`),
        ]),
        eb.and([
          eb('status', '=', 'open'),
          eb.or([
            eb('created_at', '<', sql<Date>`now() - make_interval(mins => ${TOKEN_REUSE_MINUTES})`),
            eb('amount_cents', '<>', amountCents),
          ]),
        ]),
      ]),
    )
    .execute();
}

/** What a new token request needs to know of the link's attempts. */
export interface LiveAttempt {
  /** The link's live attempt (being fetched, open, or its outcome unknown), if any. */
  live: Pick<AttemptRow, 'id' | 'status' | 'session_id' | 'session_token'> | null;
  /** Attempts made in the last hour (the card-testing brake). */
  recentCount: number;
}

/** The live attempt and the hour's count in one statement (issue 30: the token request's two reads). */
export async function findLiveAttempt(q: Queryable, linkId: string): Promise<LiveAttempt> {
  const r = await q.query<{
    id: string | null;
    status: AttemptRow['status'] | null;
    session_id: string | null;
    session_token: string | null;
    recent: number;
  }>(
    `select a.id, a.status, a.session_id, a.session_token, r.n as recent
       from (select count(*)::int as n from payment_attempt
              where link_id = $1 and created_at > now() - interval '1 hour') r
       left join lateral (select id, status, session_id, session_token from payment_attempt
              where link_id = $1 and status in ('creating', 'open', 'unknown') limit 1) a on true`,
    [linkId],
  );
  const row = r.rows[0]!;
  const live =
    row.id === null
      ? null
      : { id: row.id, status: row.status!, session_id: row.session_id, session_token: row.session_token };
  return { live, recentCount: row.recent };
}

/**
 * A decline or error was reported by `sessionId`: its next submit gets a fresh token. Only that session's attempts
 * (and those made before attempts named their session) are closed: another browser's failure never retires the token
 * a browser is paying with (issue 25).
 */
export async function closeOpenAttempts(q: Queryable, linkId: string, sessionId: string): Promise<number> {
  const r = await typed(q)
    .updateTable('payment_attempt')
    .set({ status: 'closed', updated_at: sql`now()` })
    .where('link_id', '=', linkId)
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('session_id', '=', sessionId), eb('session_id', 'is', null)]))
    .executeTakeFirstOrThrow();
  return Number(r.numUpdatedRows);
}

/** Whether a payment of this link is under way: a token being fetched, handed out and live, or its outcome unknown. */
export async function hasPaymentInProgress(q: Queryable, linkId: string): Promise<boolean> {
  if (await hasLiveToken(q, linkId)) return true;
  const unknown = await typed(q)
    .selectFrom('payment_attempt')
    .select(sql<number>`1`.as('unknown'))
    .where('link_id', '=', linkId)
    .where('status', '=', 'unknown')
    .executeTakeFirst();
  return unknown !== undefined;
}

/** A token handed out in the last TOKEN_REUSE_MINUTES (or being fetched) that may still charge the card. */
export async function hasLiveToken(q: Queryable, linkId: string): Promise<boolean> {
  const live = await typed(q)
    .selectFrom('payment_attempt')
    .select(sql<number>`1`.as('live'))
    .where('link_id', '=', linkId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'creating'),
        eb.and([
          eb('status', '=', 'open'),
          eb('created_at', '>', sql<Date>`now() - make_interval(mins => ${TOKEN_REUSE_MINUTES})`),
        ]),
      ]),
    )
    .executeTakeFirst();
  return live !== undefined;
}
