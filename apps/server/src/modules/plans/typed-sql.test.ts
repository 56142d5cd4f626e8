import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 41: the plans module reads and writes through the typed builder (`typed(q)`, db/typed.ts) as the other
 * modules do, with `sql` templates only for expressions the builder lacks. A raw `q.query(...)` / `tx.query<...>(...)`
 * or a SQL text put together from strings (`sql.raw`) in a plans product file fails here.
 */
const PLANS = path.dirname(fileURLToPath(import.meta.url));
const RAW = [/\.query\s*[<(]/, /\bsql\s*\.\s*raw\s*\(/];

const productFiles = () =>
  fs
    .readdirSync(PLANS)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(PLANS, f));

describe('typed SQL in plans', () => {
  it('no plans product file sends raw SQL text', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(10);
    const offenders = files
      .filter((f) => RAW.some((re) => re.test(fs.readFileSync(f, 'utf8'))))
      .map((f) => path.basename(f));
    expect(offenders).toEqual([]);
  });

  it('the patterns catch the raw forms this replaced, and leave the gateway and the builder alone', () => {
    const raw = [
      'await tx.query(`update plan_installment set ${set}, updated_at = now() where id = $1`, [id])',
      'const r = await q.query<{ n: number }>(\n  `select n from plan_installment`)',
      'await opts.db.query (`select 1`)',
      'sql.raw(`claimed_by = null`)',
    ];
    for (const text of raw)
      expect(
        RAW.some((re) => re.test(text)),
        text,
      ).toBe(true);
    const fine = [
      'await opts.gateway.queryTransaction(opts.transactionId)',
      "await typed(tx).selectFrom('plan_installment').select('n').execute()",
      'sql<Date>`now()`',
    ];
    for (const text of fine)
      expect(
        RAW.some((re) => re.test(text)),
        text,
      ).toBe(false);
  });
});
