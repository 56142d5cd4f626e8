import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throwawayDatabase } from '../../../test/support/throwaway-database.js';
import { serveArgs } from '../../../../../scripts/server-entry.mjs';
import { openPostgres, type Db } from '../../db/client.js';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { convergeEndpoints, createConvergeGateway } from '../../providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../../providers/gateway/sandbox.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { payWithSandbox } from '../../../test/support/payment-fixtures.js';
import { freePort } from '../../../test/support/ports.js';
import { startServerProcess, stopServerProcesses, type ServerProcess } from '../../../test/support/server-process.js';
import { materialisePlan, sealCardToken } from './index.js';

/**
 * Issue 28's proof at scale (decision 0213): two server processes, started as `npm run serve` starts one, on one
 * PostgreSQL database and one sandbox gateway (the first process's; the second is pointed at it); 50 scheduler passes
 * at once through `POST /api/admin/plans/run`, spread over both, on 200 due instalments: 200 sales at the gateway,
 * 200 recorded, none twice. Then the gateway approves a sale and never answers: one sale, recorded by reconciliation
 * on a later pass of the other process. Needs DATABASE_URL (CI's second pass); skipped otherwise.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const PLANS = 200;
const PASSES = 50;
let fresh: Awaited<ReturnType<typeof throwawayDatabase>> | undefined;
let a: ServerProcess;
let b: ServerProcess;
let db: Db;
let gateway: CardGateway;
let gatewayOrigin: string;

beforeAll(async () => {
  if (!DATABASE_URL) return;
  fresh = await throwawayDatabase(DATABASE_URL, 'paylink_2p');
  const u = new URL(fresh.url);
  const gatewayPort = await freePort();
  gatewayOrigin = `http://127.0.0.1:${gatewayPort}`;
  const env = {
    DATABASE_URL: u.toString(),
    // Only the passes this test asks for run; the real clock (2026) would find nothing due in 2098 anyway.
    PLAN_SCHEDULER_INTERVAL: 'off',
    REMINDER_QUIET_HOURS: 'off',
    PRACTICE_TIME_ZONE: 'America/Chicago',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '0',
    // Small claims, so the 50 passes contend for them (with 50 a row, the first four claims would take all 200).
    PLAN_SCHEDULER_BATCH: '5',
  };
  // One after the other: the first migrates and seeds, the second finds it done. Both run what `npm run serve` runs.
  a = await startServerProcess({ ...env, GATEWAY_PORT: String(gatewayPort) }, 'paylink-2p-', serveArgs());
  b = await startServerProcess({ ...env, GATEWAY_ORIGIN: gatewayOrigin }, 'paylink-2p-', serveArgs());
  db = openPostgres(u.toString());
  gateway = createConvergeGateway({
    kind: 'sandbox',
    credentials: () => sandboxGatewayCredentials(db),
    endpoints: convergeEndpoints('demo', gatewayOrigin),
    timeoutMs: 10_000,
  });
}, 180_000);

afterAll(async () => {
  if (!DATABASE_URL) return;
  await fault({ mode: 'none' }).catch(() => undefined);
  await stopServerProcesses();
  await db?.close();
  await fresh?.drop();
}, 60_000);

const fault = (body: object) =>
  fetch(`${gatewayOrigin}/sandbox/sale-faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function call(server: ServerProcess, path: string, body: object) {
  const r = await fetch(`${server.loopbackUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as Record<string, unknown>;
  expect(r.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

type Report = { paid: number; notified: number; unknown: number; declined: number; failed: number };
const runPlans = (server: ServerProcess, now: string) =>
  call(server, '/api/admin/plans/run', { now }) as Promise<Report & Record<string, unknown>>;
const sum = (reports: Report[], key: keyof Report) => reports.reduce((s, r) => s + r[key], 0);

/** fn over items, `width` at a time. */
async function pooled<T, R>(items: T[], width: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/** A deposit that stores the card at the shared sandbox gateway, as the payment page's sale does: its token. */
async function storedToken(card: string): Promise<string> {
  const sessionToken = await gateway.createSessionToken({
    amountCents: 20000,
    merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
    firstName: 'Ana',
    lastName: 'Garcia',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(gatewayOrigin, { sessionToken, card, amountCents: 20000 });
  expect(pay?.ssl_result).toBe('0');
  return (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
}

/**
 * `count` links with a one-charge plan due on `dueOn`, created through both processes' API; the deposit's effect
 * (the materialised plan and the stored card) written directly, as the approval does: the deposit path has its tests.
 */
async function plans(
  count: number,
  dueOn: string,
  token: string,
  shape: object = { kind: 'single', dueOn },
): Promise<string[]> {
  const sealed = await sealCardToken({ db, config: {}, q: db }, token);
  return pooled(Array.from({ length: count }), 8, async (_, i) => {
    const link = await call(i % 2 ? b : a, '/api/admin/links', {
      firstName: 'Pat',
      lastName: `Scale${i}`,
      phone: '512-555-0147',
      plan: { total: 500, ...shape },
    });
    const linkId = link.id as string;
    await db.transaction(async (tx) => {
      await materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 });
      await tx.query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', '0002')`, [
        linkId,
        sealed,
      ]);
    });
    return linkId;
  });
}

async function installments(linkIds: string[]) {
  const r = await db.query<{ status: string; merchant_txn_id: string; gateway_txn_id: string | null }>(
    `select i.status, i.merchant_txn_id, i.gateway_txn_id from plan_installment i
       join payment_plan p on p.id = i.plan_id where p.link_id = any($1)`,
    [linkIds],
  );
  return r.rows;
}

/** The gateway's own record of the sales under these merchant transaction ids (its transaction table). */
async function salesAtGateway(merchantTxnIds: string[]) {
  const r = await db.query<{ merchant_txn_id: string; txn_id: string; result: string }>(
    `select merchant_txn_id, txn_id, result from sandbox_gateway_transaction where merchant_txn_id = any($1)`,
    [merchantTxnIds],
  );
  return r.rows;
}

describe.skipIf(!DATABASE_URL)('plan scheduler: two server processes on one PostgreSQL database', () => {
  it(
    `${PASSES} passes at once over both processes charge ${PLANS} due instalments exactly once`,
    { timeout: 120_000 },
    async () => {
      const links = await plans(PLANS, '2098-05-20', await storedToken('4000000000000002'));
      // The notices, 7 days before (a few passes on both processes).
      const notices = await Promise.all([a, b, a, b].map((s) => runPlans(s, '2098-05-13T15:00:00Z')));
      expect(sum(notices, 'notified')).toBe(PLANS);

      const reports = await Promise.all(
        Array.from({ length: PASSES }, (_, i) => runPlans(i % 2 ? b : a, '2098-05-20T15:00:00Z')),
      );
      expect(sum(reports, 'paid')).toBe(PLANS);
      expect(sum(reports, 'unknown') + sum(reports, 'declined') + sum(reports, 'failed')).toBe(0);
      // Both processes charged: the claims really were shared.
      expect(
        sum(
          reports.filter((_, i) => i % 2 === 0),
          'paid',
        ),
      ).toBeGreaterThan(0);
      expect(
        sum(
          reports.filter((_, i) => i % 2 === 1),
          'paid',
        ),
      ).toBeGreaterThan(0);
      expect((await runPlans(a, '2098-05-21T15:00:00Z')).paid).toBe(0);

      // Recorded: every instalment paid, each with its own gateway transaction.
      const rows = await installments(links);
      expect(rows).toHaveLength(PLANS);
      expect(rows.every((r) => r.status === 'paid')).toBe(true);
      expect(new Set(rows.map((r) => r.gateway_txn_id)).size).toBe(PLANS);
      const audits = await db.query<{ n: string }>(
        `select count(*) as n from audit_event where action = 'installment.paid' and link_id = any($1)`,
        [links],
      );
      expect(Number(audits.rows[0]!.n)).toBe(PLANS);

      // The gateway's side: one sale per instalment, the one recorded, in its table and by txnquery.
      const byId = new Map(rows.map((r) => [r.merchant_txn_id, r.gateway_txn_id]));
      const sales = await salesAtGateway([...byId.keys()]);
      expect(sales).toHaveLength(PLANS);
      expect(sales.every((s) => s.result === '0' && byId.get(s.merchant_txn_id) === s.txn_id)).toBe(true);
      const found = await pooled([...byId.keys()], 8, (id) => gateway.findByMerchantTxnId(id, new Date()));
      expect(found.map((f) => f.length)).toEqual(Array(PLANS).fill(1));
      expect(found.every(([t], i) => t!.approved && t!.txnId === byId.get([...byId.keys()][i]!))).toBe(true);
    },
  );

  it(
    'the gateway approves and never answers: one sale, recorded by reconciliation on the other process',
    { timeout: 60_000 },
    async () => {
      const [linkId] = await plans(1, '2098-06-20', await storedToken('4000000000000002'));
      expect((await runPlans(a, '2098-06-13T15:00:00Z')).notified).toBe(1);
      // The sale is recorded at the gateway, which holds its answer past the server's 10 s timeout, then hangs up.
      await fault({ mode: 'approve-then-timeout', delayMs: 10_500, times: 1 });
      expect(await runPlans(a, '2098-06-20T15:00:00Z')).toMatchObject({ unknown: 1, paid: 0 });
      const [unknown] = await installments([linkId!]);
      expect(unknown!.status).toBe('notified');
      expect(await salesAtGateway([unknown!.merchant_txn_id])).toHaveLength(1);

      // A later pass, on the other process, asks the gateway first and records the approval: no second sale.
      expect(await runPlans(b, '2098-06-20T15:10:00Z')).toMatchObject({ paid: 1, unknown: 0 });
      const [paid] = await installments([linkId!]);
      const sales = await salesAtGateway([unknown!.merchant_txn_id]);
      expect(sales).toHaveLength(1);
      expect(paid).toMatchObject({
        status: 'paid',
        merchant_txn_id: unknown!.merchant_txn_id,
        gateway_txn_id: sales[0]!.txn_id,
      });
      const audit = await db.query<{ details: { reconciled: boolean } }>(
        `select details from audit_event where link_id = $1 and action = 'installment.paid'`,
        [linkId],
      );
      expect(audit.rows.map((r) => r.details.reconciled)).toEqual([true]);
      expect((await runPlans(a, '2098-06-21T15:00:00Z')).paid).toBe(0);
    },
  );

  it(
    '20 "Charge now" at once over both processes: no 5xx, every sale recorded by the request that made it',
    { timeout: 120_000 },
    async () => {
      // Two plans of five $60 instalments; each instalment pressed twice, once on each process, all at once. Before
      // decision 0238 the request recording a sale (instalment, then plan) deadlocked with a press holding the plan and
      // waiting for the instalment: 500s, and a charged instalment left unrecorded until the lease ran out.
      const shape = { kind: 'installments', count: 5, every: 'month', firstDueOn: '2098-08-20' };
      const links = await plans(2, '2098-08-20', await storedToken('4000000000000002'), shape);
      const presses = links.flatMap((linkId) =>
        [1, 2, 3, 4, 5].flatMap((n) => [a, b].map((server) => ({ server, linkId, n }))),
      );
      expect(presses).toHaveLength(20);
      const answers = await Promise.all(
        presses.map(async ({ server, linkId, n }) => {
          const r = await fetch(`${server.loopbackUrl}/api/admin/links/${linkId}/plan/installments/${n}/charge`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.token()}`, 'content-type': 'application/json' },
            body: '{}',
          });
          return { status: r.status, body: (await r.json()) as { outcome?: string; error?: string } };
        }),
      );
      expect(answers.filter((x) => x.status >= 500)).toEqual([]);
      // One press of each instalment charged it and answered paid; the other was told it is taken or already paid.
      expect(answers.filter((x) => x.status === 200 && x.body.outcome === 'paid')).toHaveLength(10);
      expect(
        answers.filter(
          (x) => x.status === 409 && (x.body.error === 'charge_in_progress' || x.body.error === 'installment_not_open'),
        ),
      ).toHaveLength(10);

      // Recorded by those requests (no pass has run): every instalment paid, each plan completed, one sale each.
      const rows = await installments(links);
      expect(rows).toHaveLength(10);
      expect(rows.every((r) => r.status === 'paid' && r.gateway_txn_id)).toBe(true);
      const planRows = await db.query<{ status: string }>(`select status from payment_plan where link_id = any($1)`, [
        links,
      ]);
      expect(planRows.rows.map((r) => r.status)).toEqual(['completed', 'completed']);
      const byId = new Map(rows.map((r) => [r.merchant_txn_id, r.gateway_txn_id]));
      const sales = await salesAtGateway([...byId.keys()]);
      expect(sales).toHaveLength(10);
      expect(sales.every((s) => s.result === '0' && byId.get(s.merchant_txn_id) === s.txn_id)).toBe(true);
    },
  );
});
