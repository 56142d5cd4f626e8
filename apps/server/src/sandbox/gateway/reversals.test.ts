import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLinkId } from '../../lib/ids.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
import { GatewayError } from '../../providers/gateway/types.js';

/** The Converge client (the product's adapter) against the sandbox gateway over HTTP: ccvoid, ccreturn, settlement. */
let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

const gw = () => env.ctx.providers.gateway;

async function sale(amountCents = 50000): Promise<string> {
  const sessionToken = await gw().createSessionToken({
    amountCents,
    merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken, card: '4000000000000002', amountCents });
  expect(pay?.ssl_result).toBe('0');
  return pay!.ssl_txn_id!;
}

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as GatewayError).refused).toBe(true);
  return err as GatewayError;
}

describe('sandbox gateway: voids, returns and settlement', () => {
  it('voids an unsettled sale once; the query then reports it voided; a return of an unsettled sale is refused', async () => {
    const id = await sale();
    const before = await gw().queryTransaction(id);
    expect(before).toMatchObject({
      settled: false,
      transStatus: 'PEN',
      approved: true,
      avsResponse: 'Y',
      cvv2Response: 'M',
    });

    const err = await refusal(gw().returnTransaction(id, 1000));
    expect(err.message).toMatch(/not settled/i);

    const v = await gw().voidTransaction(id);
    expect(v).toMatchObject({ kind: 'void', amountCents: 50000, resultMessage: 'APPROVAL' });
    expect(v.txnId).not.toBe(id);
    expect((await gw().queryTransaction(id))?.transStatus).toBe('VOID');
    expect(await gw().queryTransaction(v.txnId)).toMatchObject({ transactionType: 'VOID', amountCents: 50000 });

    await refusal(gw().voidTransaction(id));
    await refusal(gw().returnTransaction(id));
  });

  it('after settlement: a void is refused; partial returns up to the sale; more than what is left is refused', async () => {
    const id = await sale(30000);
    expect(await settleSandboxBatch({ db: env.ctx.db, origin: env.gatewayOrigin, txnId: id })).toBe(1);
    expect(await gw().queryTransaction(id)).toMatchObject({ settled: true, transStatus: 'STL' });

    const err = await refusal(gw().voidTransaction(id));
    expect(err.message).toMatch(/settled/i);

    const r1 = await gw().returnTransaction(id, 10000);
    expect(r1).toMatchObject({ kind: 'return', amountCents: 10000 });
    const over = await refusal(gw().returnTransaction(id, 20001));
    expect(over.code).toBe('5012');
    const r2 = await gw().returnTransaction(id, 20000);
    expect(r2.amountCents).toBe(20000);
    expect(new Set([id, r1.txnId, r2.txnId]).size).toBe(3);
    await refusal(gw().returnTransaction(id, 1));
    await refusal(gw().returnTransaction(id));
  });

  it('a return without an amount gives back the whole remaining amount', async () => {
    const id = await sale(12345);
    await settleSandboxBatch({ db: env.ctx.db, origin: env.gatewayOrigin, txnId: id });
    await gw().returnTransaction(id, 345);
    expect((await gw().returnTransaction(id)).amountCents).toBe(12000);
  });

  it('refuses an unknown transaction', async () => {
    const err = await refusal(gw().voidTransaction('000000A00-NOPE'));
    expect(err.code).toBe('5040');
  });
});
