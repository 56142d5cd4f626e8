import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../db/client.js';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { staffToken } from '../../seed/seed-staff.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { materialisePlan, runPlanScheduler, sealCardToken } from './index.js';

/**
 * The plan scheduler's lease on a real PostgreSQL database: two connection pools (as two server processes have),
 * ten passes each at once, on twelve due instalments: each is charged exactly once. Needs DATABASE_URL (CI's second
 * pass); skipped otherwise.
 */
const DATABASE_URL = process.env.DATABASE_URL;
let env: PaymentTestEnv;
let second: Db;
beforeAll(async () => {
  if (!DATABASE_URL) return;
  env = await startPaymentTestEnv({ PRACTICE_TIME_ZONE: 'America/Chicago', REMINDER_QUIET_HOURS: 'off' });
  const name = (await env.ctx.db.query<{ d: string }>('select current_database() as d')).rows[0]!.d;
  const u = new URL(DATABASE_URL);
  u.pathname = `/${name}`;
  second = openPostgres(u.toString());
});
afterAll(async () => {
  await second?.close();
  await env?.close();
});

describe.skipIf(!DATABASE_URL)('plan scheduler: two processes on one PostgreSQL database', () => {
  it('20 concurrent passes from two pools charge each due instalment exactly once', { timeout: 120_000 }, async () => {
    const { ctx, app, gatewayOrigin } = env;
    const admin = {
      authorization: `Bearer ${await staffToken(ctx.db, { email: 'pg-admin@example.com', role: 'admin' })}`,
    };
    const sessionToken = await ctx.providers.gateway.createSessionToken({
      amountCents: 20000,
      merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
      firstName: 'Ana',
      lastName: 'Garcia',
      storeCard: true,
    });
    const { pay } = await payWithSandbox(gatewayOrigin, { sessionToken, card: '4000000000000002', amountCents: 20000 });
    const token = (await ctx.providers.gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
    const links: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/admin/links',
        headers: admin,
        payload: {
          firstName: 'Pat',
          lastName: `Pg${i}`,
          phone: '512-555-0147',
          plan: { total: 500, kind: 'single', dueOn: '2098-05-20' },
        },
      });
      const linkId = r.json().id as string;
      await ctx.db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
      await ctx.db.query(`insert into stored_card (link_id, token_sealed, last4) values ($1, $2, '0002')`, [
        linkId,
        await sealCardToken({ ...ctx, q: ctx.db }, token),
      ]);
      links.push(linkId);
    }
    const run = (db: Db, now: string) =>
      runPlanScheduler({
        db,
        gateway: ctx.providers.gateway,
        config: ctx.config,
        now: new Date(now),
        log: ctx.log,
        limit: 3,
      });
    await runPlanScheduler({
      db: ctx.db,
      gateway: ctx.providers.gateway,
      config: ctx.config,
      now: new Date('2098-05-13T15:00:00Z'),
      log: ctx.log,
    });
    const reports = await Promise.all(
      Array.from({ length: 20 }, (_, i) => run(i % 2 ? second : ctx.db, '2098-05-20T15:00:00Z')),
    );
    // Small claims (limit 3) make the passes overlap; what one pass left, a last one takes.
    const paid = reports.reduce((s, r) => s + r.paid, 0) + (await run(second, '2098-05-20T15:00:00Z')).paid;
    expect(paid).toBe(12);
    const rows = await ctx.db.query<{ merchant_txn_id: string; status: string }>(
      `select i.merchant_txn_id, i.status from plan_installment i join payment_plan p on p.id = i.plan_id
        where p.link_id = any($1)`,
      [links],
    );
    expect(rows.rows.every((r) => r.status === 'paid')).toBe(true);
    for (const r of rows.rows) {
      const found = await ctx.providers.gateway.findByMerchantTxnId(r.merchant_txn_id, new Date());
      expect(found.filter((t) => t.approved)).toHaveLength(1);
    }
  });
});
