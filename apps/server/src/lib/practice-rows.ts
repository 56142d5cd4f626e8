import { databaseOf, type Queryable } from '../db/client.js';
import type { Row } from '../db/typed.js';

/**
 * The practice's two settings rows (`practice`, seeded from PRACTICE_* at boot, and `practice_override`, the console's
 * changes), read by nearly every request of a patient's journey (branding, documents, messages, time zone) and changed
 * a few times a year: kept in each process for PRACTICE_ROWS_TTL_MS (issue 30, decision 0225).
 *
 * Freshness across processes: a change made by this process is seen at once (the write drops the copy, after its
 * commit); a change made by another process is seen within the TTL. No LISTEN/NOTIFY (PgBouncer in transaction mode
 * does not carry it), and no version query per use (that would cost the statement we are saving). Places where a
 * stale value would be wrong (the console's settings screen, the change itself) read `{ fresh: true }`.
 */
export const PRACTICE_ROWS_TTL_MS = 30_000;

export interface PracticeRows {
  practice: Pick<Row<'practice'>, 'name' | 'sender_name' | 'support_phone' | 'support_email' | 'logo_url'> | null;
  override: Row<'practice_override'> | null;
}

interface Entry {
  rows: PracticeRows;
  at: number;
}
const cache = new WeakMap<Queryable, Entry>();
/** Bumped by every local change: a read that began before it does not store what it read. */
const generations = new WeakMap<Queryable, number>();

async function read(q: Queryable): Promise<PracticeRows> {
  // One statement for both rows; (select 1) keeps one result row when neither exists.
  const r = await q.query<{ practice: PracticeRows['practice']; override: PracticeRows['override'] }>(
    `select case when p.id is null then null
              else json_build_object('name', p.name, 'sender_name', p.sender_name, 'support_phone', p.support_phone,
                                     'support_email', p.support_email, 'logo_url', p.logo_url) end as practice,
            case when o.id is null then null else row_to_json(o) end as override
       from (select 1) one left join practice p on p.id = 1 left join practice_override o on o.id = 1`,
  );
  return { practice: r.rows[0]?.practice ?? null, override: r.rows[0]?.override ?? null };
}

/** Both rows: this process's copy when younger than the TTL, else read now (through `q`, a transaction or not). */
export async function practiceRows(q: Queryable, opts: { fresh?: boolean } = {}): Promise<PracticeRows> {
  const database = databaseOf(q);
  const hit = cache.get(database);
  if (!opts.fresh && hit && Date.now() - hit.at < PRACTICE_ROWS_TTL_MS) return hit.rows;
  const generation = generations.get(database) ?? 0;
  const at = Date.now();
  const rows = await read(q);
  // Not stored when a local change happened meanwhile, nor when read inside a transaction that changed them.
  if ((generations.get(database) ?? 0) === generation && !opts.fresh) cache.set(database, { rows, at });
  return rows;
}

/** After this process changed either row (call it after the commit too): the next read goes to the database. */
export function forgetPracticeRows(q: Queryable): void {
  const database = databaseOf(q);
  cache.delete(database);
  generations.set(database, (generations.get(database) ?? 0) + 1);
}
