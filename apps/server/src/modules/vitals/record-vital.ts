import type { z } from 'zod';
import type { vitalsBodySchema } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

export type VitalInput = z.output<typeof vitalsBodySchema>;

/** Only the path of a page of ours is kept: query strings carry link ids, and anything else is not a route. */
export function normaliseRoute(route: string): string | null {
  const path = route.split(/[?#]/)[0]!.trim();
  if (!/^\/[A-Za-z0-9/_-]{0,199}$/.test(path)) return null;
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Stores one metric; answers false when the route is not a plain path (the row is skipped). */
export async function recordVital(q: Queryable, vital: VitalInput, opts: { maxRows?: number } = {}): Promise<boolean> {
  const route = normaliseRoute(vital.route);
  if (!route) return false;
  const params = [route, vital.name, vital.value, vital.rating ?? null, vital.navigationType ?? null];
  const insert = `insert into web_vital (route, name, value, rating, navigation_type) values ($1, $2, $3, $4, $5)`;
  // A public endpoint must not grow a table without bound: keep the newest maxRows (a primary-key range delete), in
  // the insert's own statement (issue 30: one statement per metric, not two).
  if (opts.maxRows) {
    await q.query(
      `with ins as (${insert} returning id)
       delete from web_vital where id <= (select id from ins) - $6::bigint`,
      [...params, opts.maxRows],
    );
  } else await q.query(insert, params);
  return true;
}
