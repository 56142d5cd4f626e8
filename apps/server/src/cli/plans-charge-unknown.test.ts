import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../lib/audit.js';
import { newLinkId } from '../lib/ids.js';
import { materialisePlan, sealCardToken } from '../modules/plans/index.js';
import { convergeEndpoints, createConvergeGateway } from '../providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../providers/gateway/sandbox.js';
import type { CardGateway } from '../providers/gateway/types.js';
import { staffToken } from '../seed/seed-staff.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../test/support/payment-fixtures.js';

/**
 * `paylink plans charge` when the gateway's answer is lost (decision 0237): the CLI says the card may have been
 * charged and not to charge again (it printed just "unknown"), and a second press prints the server's 409 sentence.
 * The sandbox gateway sits on the sale past the server's 0.4 s request timeout. Works in 2095.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
let env: PaymentTestEnv;
let baseUrl: string;
let token: string;
let usual: CardGateway;
beforeAll(async () => {
  env = await startPaymentTestEnv({ PUBLIC_URL: 'https://pay.example.com', REMINDER_QUIET_HOURS: 'off' });
  await env.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
  token = await staffToken(env.ctx.db, { email: 'cli-unknown@example.com', role: 'admin' });
  usual = env.ctx.providers.gateway;
});
afterAll(async () => {
  env.ctx.providers.gateway = usual;
  await fault({ mode: 'none' });
  await env?.close();
});

const fault = (body: object) =>
  fetch(`${env.gatewayOrigin}/sandbox/sale-faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

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

/** A link with a $500 single-balance plan, its $200 deposit recorded and a card stored at the sandbox gateway. */
async function planLink(dueOn: string): Promise<string> {
  const db = env.ctx.db;
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: { authorization: `Bearer ${token}` },
    payload: { firstName: 'Ana', lastName: 'Diaz', phone: '512-555-0148', plan: { total: 500, kind: 'single', dueOn } },
  });
  expect(r.statusCode, r.body).toBe(201);
  const linkId = r.json().id as string;
  await db.query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at,
                          card_brand, card_last4)
     values ($1, 1, 1, 20000, 'approved', $2, now(), 'visa', '0002')`,
    [linkId, `dep${linkId.replace(/[-_]/g, '')}`.slice(0, 30)],
  );
  await db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  const sessionToken = await usual.createSessionToken({
    amountCents: 20000,
    merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
    firstName: 'Ana',
    lastName: 'Diaz',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken,
    card: '4000000000000002',
    amountCents: 20000,
  });
  const cardToken = (await usual.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
  await db.query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', '0002')`, [
    linkId,
    await sealCardToken({ ...env.ctx, q: db }, cardToken),
  ]);
  return linkId;
}

describe('paylink plans charge with no answer from the gateway', () => {
  it('says the card may have been charged and not to charge again; a second press prints the 409 sentence', async () => {
    const linkId = await planLink('2095-03-20');
    env.ctx.providers.gateway = createConvergeGateway({
      kind: 'sandbox',
      credentials: () => sandboxGatewayCredentials(env.ctx.db),
      endpoints: convergeEndpoints('demo', env.gatewayOrigin),
      timeoutMs: 400,
    });
    try {
      await fault({ mode: 'slow', delayMs: 2_500, times: 1 });
      const first = await cli(['plans', 'charge', linkId, '1']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Charge of installment 1: no answer from the card gateway yet.');
      expect(first.stdout).toContain('The card may have been charged: do not charge it again.');
      expect(first.stdout).toContain('asks the gateway on every scheduler pass');
      expect(first.stdout).not.toMatch(/: unknown\./);
      // The plan's row says it is held, not just "notified".
      expect(first.stdout).toMatch(
        /1\s+\d{4}-\d\d-\d\d\s+\$300\.00\s+notified \(sent to the gateway, answer not known yet\)/,
      );

      // The command the sentence points to shows the hold too.
      const shown = await cli(['links', 'show', linkId]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/1\.\s+\S+\s+\$300\.00\s+notified \(sent to the gateway, answer not known yet\)/);

      const again = await cli(['plans', 'charge', linkId, '1']);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/error: Instal+ment 1 was already sent to the card gateway/);
      expect(again.stderr).toContain('(HTTP 409)');
    } finally {
      env.ctx.providers.gateway = usual;
    }
  });
});
