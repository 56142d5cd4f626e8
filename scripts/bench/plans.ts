/**
 * The plan scheduler at 10,000 due instalments (issue 28): the product as `npm run serve` runs it (compiled, sandbox
 * gateway in the same process) on a fresh PostgreSQL database, 10,000 one-charge plans whose notice went out 7 days
 * ago, then `POST /api/admin/plans/run` at their due time from a few lanes at once, as several processes' passes
 * would. Timed until every instalment is paid; the server's RSS sampled every 250 ms. The plans are written in SQL
 * (the deposit and the notice have their own tests): one card stored by a real sandbox deposit, sealed as the deposit
 * seals it, then cloned per link.
 */
import fs from 'node:fs';
import { openPostgres } from '../../apps/server/src/db/client.js';
import { convergeEndpoints, createConvergeGateway } from '../../apps/server/src/providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../../apps/server/src/providers/gateway/sandbox.js';
import { sealCardToken } from '../../apps/server/src/modules/plans/card-token-seal.js';
import { payWithSandbox } from '../../apps/server/test/support/payment-fixtures.js';
import { adminToken } from '../../e2e/support/admin.js';
import { rssMb, startProduct } from './product.js';

export interface PlansFigure {
  installments: number;
  lanes: number;
  batch: number;
  seedMs: number;
  chargeMs: number;
  perSecond: number;
  paid: number;
  salesAtGateway: number;
  idleRssMb: number | undefined;
  peakRssMb: number | undefined;
  /** The server process's CPU time (user + system) while charging, and per instalment. */
  serverCpuMs: number | undefined;
  serverCpuMsPerInstalment: number | undefined;
}

/** user + system CPU time of a process in ms (Linux /proc; clock ticks of 10 ms), or undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

const DUE = '2098-05-20';
const NOW = '2098-05-20T15:00:00Z';

export async function measurePlans(opts: { installments?: number; lanes?: number; batch?: number } = {}) {
  const n = opts.installments ?? 10_000;
  const lanes = opts.lanes ?? 4;
  const batch = opts.batch ?? 50;
  const product = await startProduct({
    PLAN_SCHEDULER_INTERVAL: 'off',
    PLAN_SCHEDULER_BATCH: String(batch),
    REMINDER_QUIET_HOURS: 'off',
    PRACTICE_TIME_ZONE: 'America/Chicago',
  });
  const db = openPostgres(product.env.DATABASE_URL!);
  try {
    const t0 = performance.now();
    const gateway = createConvergeGateway({
      kind: 'sandbox',
      credentials: () => sandboxGatewayCredentials(db),
      endpoints: convergeEndpoints('demo', product.gatewayOrigin),
      timeoutMs: 10_000,
    });
    const sessionToken = await gateway.createSessionToken({
      amountCents: 20000,
      merchantTxnId: `benchdeposit${Date.now()}`,
      firstName: 'Pat',
      lastName: 'Lopez',
      storeCard: true,
    });
    const { pay } = await payWithSandbox(product.gatewayOrigin, {
      sessionToken,
      card: '4000000000000002',
      amountCents: 20000,
    });
    const token = (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
    const sealed = await sealCardToken({ db, config: {}, q: db }, token);
    await db.query(`
      insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, procedure_description,
        sign_in_method, language, expires_at)
      select 'benchplan' || lpad(i::text, 16, '0'), 'Pat' || i, 'Lopez', '1 Main St', 'Austin', 'Texas', '73301',
        '512555' || lpad((i % 10000)::text, 4, '0'), 'p' || i || '@example.com', 'Surgery balance', 'sms',
        case when i % 3 = 0 then 'es' else 'en' end, now() + interval '7 days'
      from generate_series(1, ${n}) i`);
    await db.query(`
      insert into payment_plan (link_id, total_cents, kind, installment_count, first_due_on, status, deposit_cents,
        balance_cents, materialised_at)
      select 'benchplan' || lpad(i::text, 16, '0'), 50000, 'single', 1, '${DUE}', 'active', 20000, 30000, now()
      from generate_series(1, ${n}) i`);
    await db.query(
      `insert into plan_installment (plan_id, n, due_on, amount_cents, status, notified_at, merchant_txn_id)
       select p.id, 1, '${DUE}', 30000, 'notified', '2098-05-13T15:00:00Z', 'bench' || md5(p.link_id)
       from payment_plan p where p.link_id like 'benchplan%'`,
    );
    await db.query(
      `insert into stored_card (link_id, token_sealed, brand, last4)
       select id, $1, 'visa', '0002' from link where id like 'benchplan%'`,
      [sealed],
    );
    await db.query('analyze');
    const seedMs = Math.round(performance.now() - t0);

    const idleRssMb = rssMb(product.pid);
    let peakRssMb = idleRssMb ?? 0;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(product.pid) ?? 0)), 250);
    const auth = `Bearer ${await adminToken(product)}`;
    const pass = async () => {
      const r = await fetch(`${product.baseUrl}/api/admin/plans/run`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ now: NOW }),
        signal: AbortSignal.timeout(30 * 60_000),
      });
      if (!r.ok) throw new Error(`plans/run answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as { paid: number };
    };
    const cpu0 = cpuMs(product.pid);
    const t1 = performance.now();
    // Each lane's pass claims batch after batch until nothing is left; a last pass checks that nothing is.
    const reports = await Promise.all(Array.from({ length: lanes }, pass));
    const chargeMs = Math.round(performance.now() - t1);
    const cpu1 = cpuMs(product.pid);
    const serverCpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    clearInterval(sampler);
    const left = await pass();
    const paid = await db.query<{ n: string }>(`select count(*) as n from plan_installment where status = 'paid'`);
    const sales = await db.query<{ n: string; ids: string }>(
      `select count(*) as n, count(distinct merchant_txn_id) as ids from sandbox_gateway_transaction
        where merchant_txn_id like 'bench%' and merchant_txn_id not like 'benchdeposit%'`,
    );
    const figure: PlansFigure = {
      installments: n,
      lanes,
      batch,
      seedMs,
      chargeMs,
      perSecond: Math.round((n / chargeMs) * 1000),
      paid: Number(paid.rows[0]!.n),
      salesAtGateway: Number(sales.rows[0]!.n),
      idleRssMb,
      peakRssMb: peakRssMb || undefined,
      serverCpuMs,
      serverCpuMsPerInstalment: serverCpuMs === undefined ? undefined : Math.round((serverCpuMs / n) * 10) / 10,
    };
    const reported = reports.reduce((s, r) => s + r.paid, 0) + left.paid;
    if (reported !== figure.paid || Number(sales.rows[0]!.ids) !== figure.salesAtGateway) {
      throw new Error(`plans bench: passes reported ${reported} paid, ${JSON.stringify(figure)}`);
    }
    return figure;
  } finally {
    await db.close();
    await product.stop();
  }
}
