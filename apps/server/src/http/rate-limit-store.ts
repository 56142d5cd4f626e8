import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/client.js';

/**
 * @fastify/rate-limit's store on PostgreSQL (issue 26): with DATABASE_URL and no REDIS_URL, several processes count
 * each (group, address) window together. One upsert per counted request: a row whose window ended starts again at 1.
 * Expired rows are swept now and then by the request that happens to draw it.
 */
const SWEEP_EVERY = 500;
const LOCAL_KEYS_MAX = 10_000;

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
  const countLocally = (key: string, windowMs: number) => {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || w.endsAt <= now) {
      windows.delete(key);
      // Bounded: the oldest window goes first (Map keeps insertion order).
      if (windows.size >= LOCAL_KEYS_MAX) windows.delete(windows.keys().next().value!);
      w = { count: 0, endsAt: now + windowMs };
      windows.set(key, w);
    }
    w.count++;
    return { current: w.count, ttl: w.endsAt - now };
  };

  class PostgresStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      const windowMs = timeWindow ?? 60_000;
      if (opts.local?.(key)) {
        callback(null, countLocally(this.prefix + key, windowMs));
        return;
      }
      db.query<{ count: number; ttl_ms: number }>(
        `insert into rate_limit_counter as c (key, count, expires_at)
         values ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
         on conflict (key) do update set
           count = case when c.expires_at <= now() then 1 else c.count + 1 end,
           expires_at = case when c.expires_at <= now() then excluded.expires_at else c.expires_at end
         returning count, (extract(epoch from expires_at - now()) * 1000)::int as ttl_ms`,
        [this.prefix + key, windowMs],
      )
        .then((r) => {
          const row = r.rows[0]!;
          callback(null, { current: Number(row.count), ttl: Math.max(0, Number(row.ttl_ms)) });
          if (Math.random() * SWEEP_EVERY < 1) {
            db.query(`delete from rate_limit_counter where expires_at < now() - interval '1 minute'`).catch(
              () => undefined,
            );
          }
        })
        .catch((err: Error) => callback(err));
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // A route with its own limit counts apart from the others (as the plugin's Redis store does).
      const r = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new PostgresStore(undefined, `${this.prefix}${r.method ?? ''}${r.url ?? ''}-`);
    }
  }
  return PostgresStore as unknown as FastifyRateLimitStoreCtor;
}
