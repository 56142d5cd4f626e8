import type { Db, Queryable } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';

/**
 * Failed staff sign-ins slow the next attempt down; they never lock an account (docs/decisions/0131). Three counters
 * over the last 15 minutes, each with its own free attempts and growing delay (1 s, 2 s, 4 s, … up to a cap), measured
 * from the latest failure of that counter:
 * - the account from this IP: 3 free, then up to 5 minutes (a guesser at one address is slowed hard);
 * - this IP over every account: 10 free, then up to 5 minutes (password spraying);
 * - the account from anywhere: 5 free, then at most 30 s — so somebody else's failures can keep the real user waiting
 *   half a minute at worst, never out.
 * Attempts refused for the delay are not failures: they do not make it longer.
 *
 * An attempt is reserved before the slow work (docs/decisions/0193): under advisory locks on the e-mail and the IP,
 * the counters are read and a 'pending' row is written in one transaction, so concurrent requests see each other's
 * attempts and at most the free tries of a burst are evaluated, however many arrive at once. The row becomes a
 * failure when the password or code is wrong and is deleted when it is right; a request that dies half-way leaves it
 * as a failure (fail closed, gone from the counters after 15 minutes).
 */
const WINDOW_MINUTES = 15;
const RULES = {
  accountIp: { free: 3, capSeconds: 300 },
  ip: { free: 10, capSeconds: 300 },
  account: { free: 5, capSeconds: 30 },
} as const;

function delaySeconds(failures: number, rule: { free: number; capSeconds: number }): number {
  if (failures <= rule.free) return 0;
  return Math.min(rule.capSeconds, 2 ** (failures - rule.free - 1));
}

interface CounterRow {
  n: number;
  last: Date | null;
}

/** Throws 429 too_many_attempts (with retryAfterSeconds) while a delay is running for this e-mail or IP. */
async function assertSignInAllowed(q: Queryable, opts: { email: string; ip: string }): Promise<void> {
  const r = await q.query<{ account_ip: CounterRow; ip: CounterRow; account: CounterRow; now: Date }>(
    `with recent as (
       select email, ip, at from staff_sign_in_failure
       where at > now() - make_interval(mins => $3) and (email = $1 or ip = $2)
     )
     select
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where email = $1 and ip = $2) as account_ip,
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where ip = $2) as ip,
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where email = $1) as account,
       clock_timestamp() as now`,
    [opts.email, opts.ip, WINDOW_MINUTES],
  );
  const row = r.rows[0]!;
  const now = new Date(row.now).getTime();
  let wait = 0;
  for (const key of ['accountIp', 'ip', 'account'] as const) {
    const c = key === 'accountIp' ? row.account_ip : row[key];
    const delay = delaySeconds(Number(c.n), RULES[key]);
    // Within the free tries there is no delay, however recent the latest attempt. (A concurrent attempt that took the
    // lock first is stamped with its transaction's start, which can be after this one's now(): hence clock_timestamp.)
    if (!c.last || delay === 0) continue;
    const until = new Date(c.last).getTime() + delay * 1000;
    wait = Math.max(wait, Math.ceil((until - now) / 1000));
  }
  if (wait > 0) throw tooManyAttempts(wait);
}

function tooManyAttempts(retryAfterSeconds: number): AppError {
  return new AppError(
    'too_many_attempts',
    `Too many failed sign-ins. Wait ${retryAfterSeconds} seconds and try again.`,
    {
      retryAfterSeconds,
    },
  );
}

/** Keys of the advisory locks (two-int form, first int = this namespace): taken e-mail first, then IP, always. */
const LOCK_NAMESPACE = 7243191;

export type AttemptKind = 'password' | 'code' | 'enrol';

/** A reserved attempt: its row counts as a failure until it is settled. */
export interface SignInAttempt {
  id: string;
  email: string;
  ip: string;
}

/** Checks the delay and writes the pending attempt in one transaction; throws 429 while a delay runs. */
export async function reserveSignInAttempt(db: Db, opts: { email: string; ip: string }): Promise<SignInAttempt> {
  const email = opts.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `email:${email}`]);
    await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `ip:${opts.ip}`]);
    await assertSignInAllowed(tx, { email, ip: opts.ip });
    const r = await tx.query<{ id: string }>(
      `insert into staff_sign_in_failure (email, ip, kind) values ($1, $2, 'pending') returning id`,
      [email, opts.ip],
    );
    return { id: String(r.rows[0]!.id), email, ip: opts.ip };
  });
}

/** The password or code was right: the attempt is not a failure. */
export async function settleSucceeded(q: Queryable, attempt: SignInAttempt): Promise<void> {
  await q.query('delete from staff_sign_in_failure where id = $1', [attempt.id]);
}

/** The password or code was wrong: the attempt stays as a failure, timed now (the delay runs from the latest). */
export async function settleFailed(q: Queryable, attempt: SignInAttempt, kind: AttemptKind): Promise<void> {
  await q.query('update staff_sign_in_failure set kind = $2, at = now() where id = $1', [attempt.id, kind]);
}

/** A code is about to be checked: the attempt counts towards the account's cap of wrong codes while it runs. */
export async function markCodeAttempt(q: Queryable, attempt: SignInAttempt): Promise<void> {
  await q.query(`update staff_sign_in_failure set kind = 'code' where id = $1`, [attempt.id]);
}

/** Wrong second-factor codes (in flight included) for an account over the last 15 minutes. */
export const CODE_CAP = { max: 10, windowMinutes: WINDOW_MINUTES } as const;
export async function countCodeAttempts(q: Queryable, email: string, exceptId?: string): Promise<number> {
  const r = await q.query<{ n: number }>(
    `select count(*)::int as n from staff_sign_in_failure
     where email = $1 and kind = 'code' and at > now() - make_interval(mins => $2) and id <> coalesce($3::bigint, -1)`,
    [email, CODE_CAP.windowMinutes, exceptId ?? null],
  );
  return r.rows[0]!.n;
}
