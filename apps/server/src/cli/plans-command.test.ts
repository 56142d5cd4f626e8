import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../seed/seed-staff.js';
import { createTestApp } from '../../test/support/context.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let t: Awaited<ReturnType<typeof createTestApp>>;
let baseUrl: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  token = await staffToken(t.ctx.db, { email: 'cli-plans@example.com', role: 'admin' });
});
afterAll(async () => t.close());

function cli(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('PAYLINK_') && k !== 'PORT'),
    ) as Record<string, string>;
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: ROOT, env: { ...clean, PAYLINK_URL: baseUrl, PAYLINK_ADMIN_TOKEN: token }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('paylink plans run', () => {
  it('runs one scheduler pass at --now and prints what it did', async () => {
    const json = await cli(['plans', 'run', '--now', '2099-02-01T15:00:00Z', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ now: '2099-02-01T15:00:00.000Z', notified: 0, paid: 0 });
    const human = await cli(['plans', 'run', '--now', '2099-02-01T10:00:00-05:00']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('Plan scheduler at 2099-02-01T15:00:00.000Z');
    expect(human.stdout).toContain('PLANS COMPLETED');
  });

  it('refuses a time without a zone', async () => {
    const r = await cli(['plans', 'run', '--now', '2099-02-01']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--now must be an ISO time');
  });
});

describe('paylink plans pause|resume|cancel|reschedule|charge|refund', () => {
  it('acts on a plan through the route table and prints it; bad arguments are refused before any call', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        firstName: 'Ana',
        lastName: 'Diaz',
        phone: '(555) 010-9999',
        plan: { total: 5000, kind: 'installments', count: 3, every: 'month', firstDueOn: '2099-03-15' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    // Before the deposit nothing is scheduled: the server's sentence comes through.
    const pending = await cli(['plans', 'pause', id]);
    expect(pending.code).not.toBe(0);
    expect(pending.stderr).toContain('the deposit is not paid yet');
    await t.ctx.db.query(
      `update payment_plan set status = 'active', deposit_cents = 50000, balance_cents = 450000, materialised_at = now()
        where link_id = $1`,
      [id],
    );
    await t.ctx.db.query(
      `insert into plan_installment (plan_id, n, due_on, amount_cents, merchant_txn_id)
       select id, n, date '2099-03-15' + (n - 1) * 30, 150000, md5(random()::text) from payment_plan, generate_series(1, 3) n
        where link_id = $1`,
      [id],
    );
    const paused = await cli(['plans', 'pause', id, '--reason', 'patient travelling']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain('Plan paused');
    expect((await cli(['plans', 'resume', id])).stdout).toContain('Plan active');
    const moved = await cli(['--json', 'plans', 'reschedule', id, '2', '2099-05-01']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).plan.installments[1]).toMatchObject({ n: 2, dueOn: '2099-05-01' });
    const badDate = await cli(['plans', 'reschedule', id, '2', '2099-02-30']);
    expect(badDate.code).not.toBe(0);
    expect(badDate.stderr).toContain('<date> must be a date');
    const badN = await cli(['plans', 'charge', id, 'two']);
    expect(badN.stderr).toContain('<n> must be an installment number');
    const notPaid = await cli(['plans', 'refund', id, '1', '--amount', '10']);
    expect(notPaid.code).not.toBe(0);
    expect(notPaid.stderr).toContain('only a paid one can be refunded');
    const cancelled = await cli(['plans', 'cancel', id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain('Plan cancelled');
    expect(cancelled.stdout).toMatch(/3\s+2099-\d\d-\d\d\s+\$1,?500\.00\s+cancelled/);
  });
});
