import type { Queryable } from '../../db/client.js';
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
export async function assertSignInAllowed(q: Queryable, opts: { email: string; ip: string }): Promise<void> {
  const r = await q.query<{ account_ip: CounterRow; ip: CounterRow; account: CounterRow; now: Date }>(
    `with recent as (
       select email, ip, at from staff_sign_in_failure
       where at > now() - make_interval(mins => $3) and (email = $1 or ip = $2)
     )
     select
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where email = $1 and ip = $2) as account_ip,
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where ip = $2) as ip,
       (select jsonb_build_object('n', count(*), 'last', max(at)) from recent where email = $1) as account,
       now() as now`,
    [opts.email, opts.ip, WINDOW_MINUTES],
  );
  const row = r.rows[0]!;
  const now = new Date(row.now).getTime();
  let wait = 0;
  for (const key of ['accountIp', 'ip', 'account'] as const) {
    const c = key === 'accountIp' ? row.account_ip : row[key];
    if (!c.last) continue;
    const until = new Date(c.last).getTime() + delaySeconds(Number(c.n), RULES[key]) * 1000;
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

export async function recordSignInFailure(q: Queryable, opts: { email: string; ip: string }): Promise<void> {
  await q.query('insert into staff_sign_in_failure (email, ip) values ($1, $2)', [opts.email, opts.ip]);
}
