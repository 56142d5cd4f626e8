import type { z } from 'zod';
import type { vitalMetricSchema } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

export type VitalInput = z.output<typeof vitalMetricSchema>;

/** Only the path of a page of ours is kept: query strings carry link ids, and anything else is not a route. */
export function normaliseRoute(route: string): string | null {
  const path = route.split(/[?#]/)[0]!.trim();
  if (!/^\/[A-Za-z0-9/_-]{0,199}$/.test(path)) return null;
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * Stores a request's metrics (one, or a page's batch) in one statement; answers false, storing none, when a route is
 * not a plain path.
 */
export async function recordVitals(
  q: Queryable,
  vitals: readonly VitalInput[],
  opts: { maxRows?: number } = {},
): Promise<boolean> {
  const routes = vitals.map((v) => normaliseRoute(v.route));
  if (vitals.length === 0 || routes.some((r) => r === null)) return false;
  const params = [
    routes,
    vitals.map((v) => v.name),
    vitals.map((v) => v.value),
    vitals.map((v) => v.rating ?? null),
    vitals.map((v) => v.navigationType ?? null),
  ];
  // One row per metric, in the order sent (ordinality), from one statement (issue 30: not one per metric).
  const insert = `insert into web_vital (route, name, value, rating, navigation_type)
    select route, name, value, rating, navigation_type
    from unnest($1::text[], $2::text[], $3::double precision[], $4::text[], $5::text[])
      with ordinality as m(route, name, value, rating, navigation_type, n)
    order by n`;
  // A public endpoint must not grow a table without bound: keep the newest maxRows (a primary-key range delete), in
  // the insert's own statement.
  if (opts.maxRows) {
    await q.query(
      `with ins as (${insert} returning id)
       delete from web_vital where id <= (select max(id) from ins) - $6::bigint`,
      [...params, opts.maxRows],
    );
  } else await q.query(insert, params);
  return true;
}

/** Stores one metric (see recordVitals). */
export function recordVital(q: Queryable, vital: VitalInput, opts: { maxRows?: number } = {}): Promise<boolean> {
  return recordVitals(q, [vital], opts);
}
