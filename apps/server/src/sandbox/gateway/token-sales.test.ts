import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLinkId } from '../../lib/ids.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { convergeEndpoints, createConvergeGateway } from '../../providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../../providers/gateway/sandbox.js';
import { GatewayError, type StoredCardCharge } from '../../providers/gateway/types.js';
import { nextMonthExpiry } from './test-cards.js';

/**
 * Stored cards and merchant-initiated sales through the sandbox gateway's HTTP API and the app's own gateway adapter
 * (chargeStoredCard, queryTransaction, findByMerchantTxnId): what a plan's scheduler relies on.
 */
let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => {
  await fault({ mode: 'none' });
  await env?.close();
});

const gateway = () => env.ctx.providers.gateway;
const txnRef = () => newLinkId().replace(/[-_]/g, 'x');
const fault = (body: object) =>
  fetch(`${env.gatewayOrigin}/sandbox/sale-faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A plan's deposit: the session asks to store the card; the sale is verified by txnquery as the server does. */
async function deposit(card: string, amountCents = 20000) {
  const merchantTxnId = txnRef();
  const sessionToken = await gateway().createSessionToken({
    amountCents,
    merchantTxnId,
    firstName: 'Ana',
    lastName: 'Garcia',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken, card, amountCents });
  expect(pay?.ssl_result).toBe('0');
  const verified = await gateway().queryTransaction(pay!.ssl_txn_id!);
  return { pay: pay!, verified: verified! };
}

const charge = (token: string, more: Partial<StoredCardCharge> = {}): StoredCardCharge => ({
  token,
  amountCents: 15000,
  merchantTxnId: txnRef(),
  installment: { number: 1, count: 1 },
  ...more,
});

describe('sandbox gateway: stored cards', () => {
  it('a deposit with storeCard returns the token and txnquery reports it with the expiry', async () => {
    const { pay, verified } = await deposit('4000000000000002');
    expect(pay.ssl_token).toMatch(/^\d{12}0002$/);
    expect(pay.ssl_token_response).toBe('SUCCESS');
    expect(verified.approved).toBe(true);
    expect(verified.cardToken).toBe(pay.ssl_token);
    expect(verified.cardExpiry).toBe('1299');
    expect(verified.last4).toBe('0002');
  });

  it('the expiring test card is stored with next month as its expiry', async () => {
    const { verified } = await deposit('4000000000000358');
    expect(verified.cardExpiry).toBe(nextMonthExpiry());
  });

  it('a token sale (instalment) approves, and txnquery finds it by our merchant transaction id', async () => {
    const { verified } = await deposit('4000000000000002');
    const req = charge(verified.cardToken!, {
      installment: { number: 2, count: 3 },
      firstSale: { approvalCode: verified.approvalCode },
    });
    const t = await gateway().chargeStoredCard(req);
    expect(t).toMatchObject({
      approved: true,
      amountCents: 15000,
      merchantTxnId: req.merchantTxnId,
      last4: '0002',
      cardBrand: 'visa',
      cardToken: verified.cardToken,
      issuerResponse: '00',
    });
    expect(t.approvalCode).toMatch(/^[A-Z0-9]{6}$/);
    const found = await gateway().findByMerchantTxnId(req.merchantTxnId, new Date());
    expect(found.map((x) => [x.txnId, x.approved])).toEqual([[t.txnId, true]]);
    expect((await gateway().queryTransaction(t.txnId))?.cardToken).toBe(verified.cardToken);
  });

  it('the decline card approves the deposit and declines every later charge for insufficient funds', async () => {
    const { verified } = await deposit('4000000000000341');
    expect(verified.approved).toBe(true);
    for (const number of [1, 2]) {
      const t = await gateway().chargeStoredCard(charge(verified.cardToken!, { installment: { number, count: 2 } }));
      expect(t).toMatchObject({ approved: false, resultMessage: 'DECLINED: NSF', issuerResponse: '51' });
      expect(t.approvalCode).toBeNull();
    }
  });

  it('refuses an unknown token, a card number, and an instalment without its number and count', async () => {
    await expect(gateway().chargeStoredCard(charge('1234567890120002'))).rejects.toMatchObject({
      name: 'GatewayError',
      refused: true,
      code: '5000',
    });
    const creds = await sandboxGatewayCredentials(env.ctx.db);
    const post = (xml: string) =>
      fetch(convergeEndpoints('demo', env.gatewayOrigin).xmlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xmldata: xml }).toString(),
      }).then((r) => r.text());
    const head = `<txn><ssl_merchant_id>${creds.merchantId}</ssl_merchant_id><ssl_user_id>${creds.userId}</ssl_user_id><ssl_pin>${creds.pin}</ssl_pin><ssl_transaction_type>ccsale</ssl_transaction_type><ssl_amount>1.00</ssl_amount>`;
    expect(await post(`${head}<ssl_card_number>4000000000000002</ssl_card_number></txn>`)).toContain(
      '<errorCode>4009</errorCode>',
    );
    const { verified } = await deposit('4000000000000002');
    expect(
      await post(`${head}<ssl_token>${verified.cardToken}</ssl_token><ssl_recurring_flag>2</ssl_recurring_flag></txn>`),
    ).toContain('<errorCode>4009</errorCode>');
  });

  it('the same merchant transaction id twice is two sales, as at Converge: reconcile before retrying', async () => {
    const { verified } = await deposit('4000000000000002');
    const req = charge(verified.cardToken!);
    const a = await gateway().chargeStoredCard(req);
    const b = await gateway().chargeStoredCard(req);
    expect(a.txnId).not.toBe(b.txnId);
    const found = await gateway().findByMerchantTxnId(req.merchantTxnId, new Date());
    expect(found.filter((t) => t.approved)).toHaveLength(2);
  });

  it('approve-then-time-out: GatewayError(refused=false), then exactly one approved sale is found', async () => {
    const { verified } = await deposit('4000000000000002');
    const shortTimeout = createConvergeGateway({
      kind: 'sandbox',
      credentials: () => sandboxGatewayCredentials(env.ctx.db),
      endpoints: convergeEndpoints('demo', env.gatewayOrigin),
      timeoutMs: 300,
    });
    await fault({ mode: 'approve-then-timeout', delayMs: 600, times: 1 });
    const req = charge(verified.cardToken!);
    const err = await shortTimeout.chargeStoredCard(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).refused).toBe(false);
    const found = await shortTimeout.findByMerchantTxnId(req.merchantTxnId, new Date());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ approved: true, amountCents: 15000, merchantTxnId: req.merchantTxnId });
  });

  it('approve-then-time-out with the connection dropped is also unknown, and the sale is recorded', async () => {
    const { verified } = await deposit('4000000000000002');
    await fault({ mode: 'approve-then-timeout', delayMs: 50, times: 1 });
    const req = charge(verified.cardToken!);
    await expect(gateway().chargeStoredCard(req)).rejects.toMatchObject({ refused: false });
    expect(await gateway().findByMerchantTxnId(req.merchantTxnId, new Date())).toHaveLength(1);
  });

  it('slow answers late but answers; the XML API outage is an unknown outcome with nothing charged', async () => {
    const { verified } = await deposit('4000000000000002');
    await fault({ mode: 'slow', delayMs: 300, times: 1 });
    const started = Date.now();
    expect((await gateway().chargeStoredCard(charge(verified.cardToken!))).approved).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    const outage = (down: boolean) =>
      fetch(`${env.gatewayOrigin}/sandbox/xml-api-outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ down }),
      });
    await outage(true);
    const req = charge(verified.cardToken!);
    try {
      await expect(gateway().chargeStoredCard(req)).rejects.toMatchObject({ refused: false });
    } finally {
      await outage(false);
    }
    expect(await gateway().findByMerchantTxnId(req.merchantTxnId, new Date())).toEqual([]);
  });
});
