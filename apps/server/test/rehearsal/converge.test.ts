import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStandIn, type GatewayStandIn } from '../../../../e2e/support/stand-ins/gateway.js';
import { loadConfig } from '../../src/config.js';
import { loadGateway } from '../../src/providers/gateway/load-gateway.js';
import { gatewayBrowserConfig } from '../../src/providers/gateway/browser-config.js';
import { GatewayError } from '../../src/providers/gateway/types.js';
import type { Db } from '../../src/db/client.js';
import { payWithSandbox } from '../support/payment-fixtures.js';

/**
 * The production rehearsal's card gateway (decision 0189): the real Converge adapter, configured from CONVERGE_* for
 * the live environment, at the sandbox gateway run on its own: a session token from hosted-payments, a sale as
 * Checkout.js and the 3-D Secure SDK make it, then the server-side verification (XML txnquery) finds it approved.
 */
let gateway: GatewayStandIn;
beforeAll(async () => {
  gateway = await startGatewayStandIn({ publicUrl: 'http://localhost:65000', logLevel: 'silent' });
});
afterAll(async () => gateway?.stop());

const convergeWith = (env: Record<string, string>) => {
  const config = loadConfig({ PAYLINK_MODE: 'sandbox', ...gateway.env, ...env });
  // The product's database plays no part: the Converge adapter only talks HTTP.
  return { config, adapter: loadGateway({ config, db: undefined as unknown as Db }) };
};

describe('Converge adapter ↔ the sandbox gateway as Converge', () => {
  it('is the real adapter, and the browser scripts come from the gateway named in the settings', () => {
    const { config, adapter } = convergeWith({});
    expect(config.sandbox.gateway).toBe(false);
    expect(adapter.kind).toBe('converge');
    expect(gatewayBrowserConfig(config)).toEqual({
      checkoutJsUrl: `${gateway.origin}/hosted-payments/Checkout.js`,
      threeDSSdkUrl: `${gateway.origin}/3ds2/web-sdk.js`,
      threeDSBaseUrl: `${gateway.origin}/3ds2`,
    });
  });

  it('gets a session token, and txnquery verifies the sale made with it', async () => {
    const { adapter } = convergeWith({});
    const sessionToken = await adapter.createSessionToken({
      amountCents: 12_550,
      merchantTxnId: 'att_rehearsal_000000000001',
      firstName: 'Ana',
      lastName: 'Garcia',
    });
    expect(sessionToken).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/);
    const { pay } = await payWithSandbox(gateway.origin, {
      sessionToken,
      card: '4000000000000002',
      amountCents: 12_550,
    });
    expect(pay).toMatchObject({ ssl_result: '0' });
    const txn = await adapter.queryTransaction(pay!.ssl_txn_id!);
    expect(txn).toMatchObject({
      txnId: pay!.ssl_txn_id,
      approved: true,
      amountCents: 12_550,
      merchantTxnId: 'att_rehearsal_000000000001',
      cardBrand: 'visa',
      last4: '0002',
      eciInd: '5',
      threeDSTransStatus: 'Y',
    });
    expect(await adapter.findByMerchantTxnId('att_rehearsal_000000000001', new Date())).toEqual([
      expect.objectContaining({ txnId: pay!.ssl_txn_id, approved: true }),
    ]);
    expect(await adapter.queryTransaction('000000-NO-SUCH-TXN')).toBeNull();
  });

  it('a wrong PIN is refused by the gateway (4025 invalid credentials)', async () => {
    const { adapter } = convergeWith({ CONVERGE_PIN: 'X'.repeat(64) });
    const e = await adapter
      .createSessionToken({ amountCents: 100, merchantTxnId: 'att_rehearsal_000000000002' })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(GatewayError);
    expect((e as GatewayError).code).toBe('4025');
    const q = await adapter.queryTransaction('whatever').catch((err: unknown) => err);
    expect(q).toBeInstanceOf(GatewayError);
    expect((q as GatewayError).code).toBe('4025');
  });
});
