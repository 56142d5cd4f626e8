import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { throwawayDatabase } from '../../test/support/throwaway-database.js';
import { startServerProcess, stopServerProcesses } from '../../test/support/server-process.js';
import type { AppContext } from '../context.js';
import { createLinkAtPaymentStep, payWithSandbox } from '../../test/support/payment-fixtures.js';
import { openPostgres } from './client.js';

/**
 * Fault test (needs DATABASE_URL, so it runs in .ci/run's PostgreSQL pass): the real server under a little load of
 * payments while every backend of its database is killed, several times. The process must stay up, answer 503 (not
 * 500, not a crash) while the database is gone, serve again without a restart, and lose nothing it acknowledged: the
 * approvals at the sandbox gateway and the recorded payments agree.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await stopServerProcesses();
  for (const f of cleanups) await f();
});

describe.skipIf(!DATABASE_URL)('database connection loss under load (needs DATABASE_URL)', () => {
  it('keeps the process up, answers 503 while the database is gone, recovers, and loses no approval', async () => {
    const fresh = await throwawayDatabase(DATABASE_URL!, 'paylink_fault');
    const dbUrl = fresh.url;
    // The test's own connections are named so the killer spares them: only the server loses its database.
    const db = openPostgres(`${dbUrl}?application_name=paylink-fault-test`);
    cleanups.push(async () => {
      await db.close();
      await fresh.drop();
    });

    const server = await startServerProcess(
      { PAYLINK_DEMO_LINKS: 'false', LOG_LEVEL: 'fatal', DATABASE_URL: dbUrl },
      'paylink-fault-',
    );
    const secret = await db.query<{ value: string }>(`select value from app_secret where name = 'session'`);
    const ctx = {
      db,
      sessionKeys: { secret: new TextEncoder().encode(secret.rows[0]!.value), ttlMinutes: 60 },
      config: { apiKey: 'paylink-sandbox-api-key' },
    } as unknown as AppContext;

    const statuses: number[] = [];
    const call = async (url: string, init: RequestInit) => {
      const r = await fetch(url, init);
      statuses.push(r.status);
      return r;
    };
    // What a patient's phone does: retry what failed (503 is "try again"), with a little backoff.
    const retry = async <T>(fn: () => Promise<T | null>): Promise<T> => {
      for (let i = 0; ; i++) {
        const v = await fn();
        if (v !== null) return v;
        if (i > 200) throw new Error('no success after 200 tries');
        await new Promise((r) => setTimeout(r, Math.min(50 * (i + 1), 500)));
      }
    };

    let stop = false;
    let paid = 0;
    const patient = async () => {
      while (!stop) {
        const link = await createLinkAtPaymentStep(ctx, { amountDollars: 300 });
        const token = await retry(async () => {
          const r = await call(`${server.loopbackUrl}/api/converge?amount=300`, {
            method: 'POST',
            headers: link.headers,
          });
          if (r.status === 200) return r.text();
          expect([502, 503]).toContain(r.status);
          return null;
        });
        const pay = await retry(async () => {
          const { pay } = await payWithSandbox(server.gatewayOrigin, {
            sessionToken: token,
            card: '4000000000000002',
            amountCents: 30000,
          }).catch(() => ({ pay: null }));
          return pay?.ssl_result === '0' ? pay : null;
        });
        await retry(async () => {
          const r = await call(`${server.loopbackUrl}/api/linkpaymenthistory`, {
            method: 'PUT',
            headers: { ...link.headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              linkId: link.linkId,
              transactionId: pay.ssl_txn_id,
              payorFullName: '',
              payorEmail: '',
            }),
          });
          if (r.status === 200) return true;
          expect([502, 503]).toContain(r.status);
          return null;
        });
        paid++;
      }
    };

    let failure: unknown = null;
    const load = Promise.all(
      [1, 2, 3, 4].map(() =>
        patient().catch((err: unknown) => {
          failure ??= err;
          stop = true;
        }),
      ),
    );
    const waitForPayments = async (n: number) => {
      const target = paid + n;
      while (paid < target && !stop) {
        if (server.child.exitCode !== null) stop = true;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const killer = new pg.Client({ connectionString: DATABASE_URL });
    await killer.connect();
    let killed = 0;
    for (let round = 0; round < 4; round++) {
      await waitForPayments(2);
      if (stop) break;
      const r = await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()
           and application_name <> 'paylink-fault-test'`,
        [fresh.name],
      );
      killed += r.rowCount ?? 0;
    }
    await killer.end();
    await waitForPayments(2);
    stop = true;
    await load;
    expect(server.child.exitCode, server.output()).toBeNull();
    if (failure) throw failure;

    expect(killed).toBeGreaterThan(0);
    expect(statuses).not.toContain(500);
    const health = await fetch(`${server.loopbackUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });

    const approvals = await db.query<{ n: number }>(
      `select count(*)::int as n from sandbox_gateway_transaction where result = '0'`,
    );
    const payments = await db.query<{ n: number }>(`select count(*)::int as n from payment where status = 'approved'`);
    expect(payments.rows[0]!.n).toBe(paid);
    expect(approvals.rows[0]!.n).toBe(payments.rows[0]!.n);
  }, 240_000);
});
