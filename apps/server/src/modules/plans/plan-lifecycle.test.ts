import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/support/test-db.js';
import type { Db } from '../../db/client.js';
import { moveInstallments, movePlan, recordInstallmentRefund } from './plan-lifecycle.js';

/**
 * Issue 41: a plan's and its instalments' status have one owner, as a link's has (link-lifecycle.test.ts). Every write
 * of payment_plan.status or plan_installment.status is in plan-lifecycle.ts, along its allowed moves; nothing else in
 * the product writes them with its own SQL.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWNER = path.join(SRC, 'modules/plans/plan-lifecycle.ts');

function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return productFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const TABLES = '(payment_plan|plan_installment)';
// SQL text: `status =` as an item of an UPDATE's SET list (after `set` or a comma, comments allowed in between), a
// status column in an INSERT's list; the typed builder (db/typed.ts): `status:` in the set or values object; and, in
// plans, a SET list passed around as a string that starts with `status =`.
const sqlSet = new RegExp(
  `\\bupdate\\s+${TABLES}\\b(?:\\s+\\w+)?\\s+set\\b(?:(?:(?!\\bwhere\\b|\\breturning\\b|;)[\\s\\S])*?,)?\\s*(?:--[^\\n]*\\n\\s*)*(?:\\w+\\.)?status\\s*=`,
  'i',
);
const STATUS_WRITES = [
  sqlSet,
  new RegExp(`\\binsert\\s+into\\s+${TABLES}\\s*\\([^)]*\\bstatus\\b`, 'i'),
  new RegExp(
    `\\.(?:updateTable|insertInto)\\(\\s*'${TABLES}'\\s*\\)(?:(?!\\.execute)[\\s\\S]){0,600}?\\bstatus\\s*:`,
    'i',
  ),
];
const PLANS_SET_STRING = /[`'"]\s*status\s*=/;

describe('plan and instalment status have one owner', () => {
  it('no product file but plan-lifecycle.ts writes payment_plan.status or plan_installment.status', () => {
    const offenders = productFiles(SRC)
      .filter((f) => f !== OWNER)
      .filter((f) => {
        const text = fs.readFileSync(f, 'utf8');
        if (STATUS_WRITES.some((re) => re.test(text))) return true;
        return f.includes(`${path.sep}plans${path.sep}`) && PLANS_SET_STRING.test(text);
      })
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
    // The owner does write them (the patterns still find what they look for).
    const owner = fs.readFileSync(OWNER, 'utf8');
    expect(STATUS_WRITES[2]!.test(owner)).toBe(true);
  });

  it('the patterns catch the writes this file replaced', () => {
    const old = [
      `update payment_plan set status = 'completed', updated_at = now() where id = $1`,
      "`update plan_installment i\n  set claimed_by = $2,\n  -- today\n  status = 'notified' where i.id = $1`",
      `update plan_installment set refunded_cents = refunded_cents + $2, status = case when 1 then 'refunded' end`,
      `typed(q).updateTable('payment_plan').set({ deposit_cents: 1, status: 'active' }).execute()`,
    ];
    for (const sql of old)
      expect(
        STATUS_WRITES.some((re) => re.test(sql)),
        sql,
      ).toBe(true);
    // Reading a status, or writing another column beside a status test, is not a write of it.
    const reads = [
      `update plan_installment i set merchant_txn_id = case when i.status = 'failed' then $4 end from payment_plan p where p.status = 'active'`,
      `update payment_plan set card_needed_at = null, updated_at = now() where id = $1 and status = 'active'`,
    ];
    for (const sql of reads)
      expect(
        STATUS_WRITES.some((re) => re.test(sql)),
        sql,
      ).toBe(false);
  });
});

describe('the allowed moves', () => {
  let db: Db;
  let planId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    db = await createTestDb();
    await db.query(
      `insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email,
                         procedure_description, sign_in_method, language, expires_at)
       values ('lifecycleLink0000000001', 'Ana', 'Diaz', '1 Main St', 'Austin', 'Texas', '73301', '5125550100',
               'ana@example.com', 'Consultation', 'sms', 'en', now() + interval '7 days')`,
    );
    const plan = await db.query<{ id: string }>(
      `insert into payment_plan (link_id, total_cents, kind, installment_count, every, first_due_on)
       values ('lifecycleLink0000000001', 50000, 'installments', 3, 'month', '2096-09-01') returning id::text`,
    );
    planId = plan.rows[0]!.id;
    for (const n of [1, 2, 3]) {
      const r = await db.query<{ id: string }>(
        `insert into plan_installment (plan_id, n, due_on, amount_cents, merchant_txn_id)
         values ($1, $2, '2096-09-01', 10000, $3) returning id::text`,
        [planId, n, `lifecyclemerchant${n}`],
      );
      ids.push(r.rows[0]!.id);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const status = async (table: 'payment_plan' | 'plan_installment', id: string) =>
    (await db.query<{ status: string }>(`select status from ${table} where id = $1`, [id])).rows[0]!.status;

  it('a plan goes pending → active → paused → active → completed, never back', async () => {
    expect(await db.transaction((tx) => movePlan(tx, planId, 'paused'))).toBe(false);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'active'))).toBe(true);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'paused'))).toBe(true);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'completed'))).toBe(false);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'active', { from: ['paused'] }))).toBe(true);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'completed'))).toBe(true);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'cancelled'))).toBe(false);
    expect(await db.transaction((tx) => movePlan(tx, planId, 'active'))).toBe(false);
    expect(await status('payment_plan', planId)).toBe('completed');
  });

  it('an instalment is paid only from notified, refunded only from paid, and a paid one is never cancelled', async () => {
    const [a, b] = ids as [string, string];
    const early = { set: { paid_at: '2096-09-01T15:00:00Z', gateway_txn_id: 'sale-0' } };
    expect(await db.transaction((tx) => moveInstallments(tx, [a], 'paid', early))).toEqual([]);
    expect(await db.transaction((tx) => moveInstallments(tx, [a, b], 'notified'))).toEqual([a, b]);
    const unclaimed = { ...early, claimedBy: 'someone' };
    expect(await db.transaction((tx) => moveInstallments(tx, [a], 'paid', unclaimed))).toEqual([]);
    const sale = { set: { paid_at: '2096-09-01T15:00:00Z', gateway_txn_id: 'sale-1' } };
    expect(await db.transaction((tx) => moveInstallments(tx, [a], 'paid', sale))).toEqual([a]);
    expect(await db.transaction((tx) => moveInstallments(tx, [a, b], 'cancelled'))).toEqual([b]);
    expect(await status('plan_installment', a)).toBe('paid');
    const part = await db.transaction((tx) => recordInstallmentRefund(tx, { installmentId: a, cents: 4000 }));
    expect(part).toEqual({ amountCents: 10000, refundedCents: 4000, status: 'paid' });
    const rest = await db.transaction((tx) => recordInstallmentRefund(tx, { installmentId: a, cents: 6000 }));
    expect(rest).toEqual({ amountCents: 10000, refundedCents: 10000, status: 'refunded' });
    expect(await db.transaction((tx) => moveInstallments(tx, [a], 'notified'))).toEqual([]);
  });
});
