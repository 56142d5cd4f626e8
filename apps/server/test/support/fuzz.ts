import type { Queryable } from '../../src/db/client.js';

/** A small seeded PRNG (mulberry32): the same seed gives the same requests, so a failure is reproducible. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/** Strings an attacker tries: injections, traversal, template syntax, unicode oddities (valid as text). */
export const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  "'; drop table link; --",
  '" OR ""="',
  '1; select pg_sleep(5)',
  '$where',
  '{"$gt": ""}',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}',
  '{{7*7}}',
  '%s%s%s%n',
  '\u202eoverride',
  '\u200b\u200c\u200d\ufeff',
  'Ñandú 🦩 مرحبا 中文',
  '\ud800',
  '\udfff\ud800',
  'ａｄｍｉｎ',
  '9'.repeat(400),
  '-1',
  '1e309',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  ' ',
  '',
] as const;

/** Values that violate a field of the given JSON-schema type (always refused by a schema of that type). */
export function wrongTypeFor(type: string | undefined, rng: Rng): unknown {
  const byType: Record<string, unknown[]> = {
    string: [12345, true, { a: 1 }, [1, 2], -0.5],
    number: ['abc', '1e309x', true, { n: 1 }, [1], ''],
    integer: ['12.5x', 'abc', true, { n: 1 }, [1], 1.5],
    boolean: ['yes', 2, { b: true }, [true]],
    object: ['x', 5, [1, 2], true],
    array: ['x', 5, { a: 1 }, true],
  };
  return rng.pick(byType[type ?? 'string'] ?? byType.string!);
}

/** Broken JSON texts, each refused by the JSON parser. */
export const BAD_JSON = ['{', '[1,', '{"a":}', 'nul', '{"a":1,,}', "{'a':1}", '\u0000{}', '{"a":"\\x"}', '{"a":1}}'];

/** Control characters, refused everywhere (issue 11, finding 3). */
export const CONTROL_STRINGS = ['a\u0000b', '\u001b[2J', 'x\u0007y', '\u009b31m', 'line\u000bbreak', '\u0008'];

/** Row counts of every table and a checksum of the tables that hold patient data and money. */
export async function databaseFingerprint(db: Queryable, patientTables: readonly string[]) {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    const r = await db.query<{ n: string }>(`select count(*)::text as n from "${table_name}"`);
    counts[table_name] = Number(r.rows[0]!.n);
  }
  const checksums: Record<string, string> = {};
  for (const t of patientTables) {
    const r = await db.query<{ h: string }>(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`,
    );
    checksums[t] = r.rows[0]!.h;
  }
  return { counts, checksums };
}
