import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/client.js';

/**
 * @fastify/rate-limit's store on PostgreSQL (issue 26): with DATABASE_URL and no REDIS_URL, several processes count
 * each (group, address) window together in rate_limit_counter. A row whose window ended starts again.
 *
 * Leased counts (issue 30, decision 0229): a group with a large budget does not pay an upsert per request. A process
 * reserves a block of `leaseSize(max)` numbers from the shared row in one upsert (count = count + L) and hands them out
 * in order until the block is used or the window ends. Each request gets a number no other process holds, and is
 * refused when it is above the limit, so across processes no more than `max` requests pass in a window (never late);
 * what a process reserved and did not use is lost for the window, so a client may be refused up to
 * (processes × (L - 1)) requests early. Strict groups (small limits) have L = 1: one upsert per request, exact.
 * Expired rows are swept now and then by the request that happens to draw it.
 */
const SWEEP_EVERY = 500;
const LOCAL_KEYS_MAX = 10_000;

/** How many counts a process reserves at once for a group allowed `max` a window: 1 (exact) below 100. */
export function leaseSize(max: number | undefined): number {
  if (!max || !Number.isFinite(max)) return 1;
  return Math.max(1, Math.floor(max / 50));
}

type Counted = { current: number; ttl: number };
/** This process's block of a key's window: numbers next..last are its to hand out until endsAt (local clock). */
type Lease = { next: number; last: number; endsAt: number };

/** A map that forgets its oldest key past LOCAL_KEYS_MAX (Map keeps insertion order; a key set again moves last). */
function boundedSet<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= LOCAL_KEYS_MAX) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/**
 * `local` names the keys counted in this process's memory instead (issue 30): the static files' group. They are
 * public, cacheable and read no data, so an upsert per file (20 of a journey's statements) bought nothing the
 * per-process count does not; the calls that read or guess (the API, sign-in) stay counted across processes.
 */
export function postgresRateLimitStore(
  db: Db,
  opts: { local?: (key: string) => boolean } = {},
): FastifyRateLimitStoreCtor {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const countLocally = (key: string, windowMs: number): Counted => {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || w.endsAt <= now) {
      w = { count: 0, endsAt: now + windowMs };
      boundedSet(windows, key, w);
    }
    w.count++;
    return { current: w.count, ttl: w.endsAt - now };
  };

  /** Adds `size` to the key's shared count (a row whose window ended starts again at `size`): the new count and ttl. */
  const reserve = async (key: string, windowMs: number, size: number): Promise<Counted> => {
    const r = await db.query<{ count: number; ttl_ms: number }>(
      `insert into rate_limit_counter as c (key, count, expires_at)
       values ($1, $3::int, now() + make_interval(secs => $2::double precision / 1000))
       on conflict (key) do update set
         count = case when c.expires_at <= now() then excluded.count else c.count + excluded.count end,
         expires_at = case when c.expires_at <= now() then excluded.expires_at else c.expires_at end
       returning count, (extract(epoch from expires_at - now()) * 1000)::int as ttl_ms`,
      [key, windowMs, size],
    );
    if (Math.random() * SWEEP_EVERY < 1) {
      db.query(`delete from rate_limit_counter where expires_at < now() - interval '1 minute'`).catch(() => undefined);
    }
    const row = r.rows[0]!;
    return { current: Number(row.count), ttl: Math.max(0, Number(row.ttl_ms)) };
  };

  const leases = new Map<string, Lease>();
  /** One reservation at a time per key: requests that find the block used wait for the next one. */
  const reserving = new Map<string, Promise<Lease>>();
  const hand = (lease: Lease, now: number): Counted => ({
    current: lease.next++,
    ttl: Math.max(0, lease.endsAt - now),
  });
  const countLeased = async (key: string, windowMs: number, size: number): Promise<Counted> => {
    for (;;) {
      const held = leases.get(key);
      if (held && held.next <= held.last && held.endsAt > Date.now()) return hand(held, Date.now());
      const pending = reserving.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const fresh = reserve(key, windowMs, size).then(({ current, ttl }) => {
        const lease = { next: current - size + 1, last: current, endsAt: Date.now() + ttl };
        boundedSet(leases, key, lease);
        return lease;
      });
      reserving.set(key, fresh);
      try {
        const lease = await fresh;
        // Its first number is this request's even if the window is nearly over (the row's ttl says so).
        if (lease.next <= lease.last) return hand(lease, Date.now());
      } finally {
        reserving.delete(key);
      }
    }
  };

  class PostgresStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: Counted) => void,
      timeWindow?: number,
      max?: number,
    ): void {
      const windowMs = timeWindow ?? 60_000;
      const fullKey = this.prefix + key;
      if (opts.local?.(key)) {
        callback(null, countLocally(fullKey, windowMs));
        return;
      }
      const size = leaseSize(max);
      // A number left in this process's block: no statement.
      const held = leases.get(fullKey);
      if (size > 1 && held && held.next <= held.last && held.endsAt > Date.now()) {
        callback(null, hand(held, Date.now()));
        return;
      }
      (size > 1 ? countLeased(fullKey, windowMs, size) : reserve(fullKey, windowMs, 1)).then(
        (counted) => callback(null, counted),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // A route with its own limit counts apart from the others (as the plugin's Redis store does).
      const r = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new PostgresStore(undefined, `${this.prefix}${r.method ?? ''}${r.url ?? ''}-`);
    }
  }
  return PostgresStore as unknown as FastifyRateLimitStoreCtor;
}
