import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  flagSecondApproval,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';

/** `payments refund` and `links evidence` run as a user would (child processes) against a running server. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
let env: PaymentTestEnv;
let baseUrl: string;
let token: string;

beforeAll(async () => {
  env = await startPaymentTestEnv();
  await env.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
  token = await staffToken(env.ctx.db, { email: 'billing-cli@example.com', role: 'billing' });
});
afterAll(async () => env?.close());

function cli(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('PAYLINK_') && k !== 'PORT'),
    ) as Record<string, string>;
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: ROOT, env: { ...clean, PAYLINK_URL: baseUrl, PAYLINK_ADMIN_TOKEN: token }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('CLI money commands', () => {
  it('payments refund (partial, then too much) and links evidence', { timeout: 240_000 }, async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    const t = await requestSessionToken(env, link);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    await settleSandboxBatch({ db: env.ctx.db, origin: env.gatewayOrigin, txnId: pay!.ssl_txn_id! });

    const r = await cli(['payments', 'refund', link.linkId, '--amount', '125.50', '--reason', 'Duplicate charge']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Refunded $125.50');
    expect(r.stdout).toContain('$374.50 left (partially refunded)');

    const over = await cli(['payments', 'refund', link.linkId, '--amount', '400', '--reason', 'Too much']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('at most $374.50 can be refunded');

    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ev-')), 'pack.pdf');
    const e = await cli(['links', 'evidence', link.linkId, '--out', out]);
    expect(e.code).toBe(0);
    expect(fs.readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it(
    'payments list shows the flag id; payments void-flagged voids the second charge',
    { timeout: 240_000 },
    async () => {
      const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 80 });
      const t = await requestSessionToken(env, link);
      const { pay } = await payWithSandbox(env.gatewayOrigin, {
        sessionToken: t.body,
        card: '4000000000000002',
        amountCents: link.amountCents,
      });
      expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
      const { attemptId, txnId } = await flagSecondApproval(env, link);

      const list = await cli(['payments', 'list', '--limit', '500']);
      expect(list.stdout).toContain(`flag ${attemptId}`);
      const r = await cli(['payments', 'void-flagged', attemptId, '--reason', 'Second charge']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`Voided the flagged charge ${txnId} of $80.00`);
      const after = await cli(['payments', 'list', '--limit', '500']);
      expect(after.stdout).not.toContain(`flag ${attemptId}`);
    },
  );
});
