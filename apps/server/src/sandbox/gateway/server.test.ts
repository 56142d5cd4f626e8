import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLinkId } from '../../lib/ids.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { sandboxGatewayCredentials } from '../../providers/gateway/sandbox.js';
import { gatewayBrowserConfig } from '../../providers/gateway/browser-config.js';
import { INVALID_CARD_MESSAGE, TEST_CARDS } from './test-cards.js';

let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

const AMOUNT = 50000;
const newSession = (amountCents = AMOUNT) =>
  env.ctx.providers.gateway.createSessionToken({ amountCents, merchantTxnId: newLinkId().replace(/[-_]/g, 'x') });

/** The table, as the sandbox must behave through its HTTP API. */
const EXPECTED: Record<
  string,
  { transStatus: string; eci?: string; pay?: Record<string, string>; challenge?: 'authenticate' | 'fail' }
> = {
  '4000000000000002': { transStatus: 'Y', eci: '05', pay: { ssl_result: '0', ssl_result_message: 'APPROVAL' } },
  '5413330089604111': {
    transStatus: 'Y',
    eci: '02',
    pay: { ssl_result: '0', ssl_card_short_description: 'MC' },
  },
  '4000000000000077': { transStatus: 'Y', eci: '05', challenge: 'authenticate', pay: { ssl_result: '0' } },
  '4000000000000101': { transStatus: 'A', eci: '06', pay: { ssl_result: '0' } },
  '4000000000000119': { transStatus: 'R' },
  '4000000000000127': { transStatus: 'U' },
  '4000000000000051': { transStatus: 'Y', pay: { ssl_result: '1', ssl_cvv2_response: 'N' } },
  '4000000000000069': { transStatus: 'Y', pay: { ssl_result: '1', ssl_cvv2_response: 'M', ssl_avs_response: 'N' } },
  '4000000000000085': {
    transStatus: 'Y',
    pay: { ssl_result: '1', ssl_result_message: 'DECLINED', ssl_cvv2_response: 'M', ssl_avs_response: 'Y' },
  },
  '4000000000000093': { transStatus: 'Y', pay: { errorCode: '3003' } },
  // Plan cards: their deposit approves like any card; token-sales.test.ts covers their later charges.
  '4000000000000341': { transStatus: 'Y', eci: '05', pay: { ssl_result: '0', ssl_token_response: 'SUCCESS' } },
  '4000000000000358': { transStatus: 'Y', eci: '05', pay: { ssl_result: '0', ssl_token_response: 'SUCCESS' } },
};

describe('sandbox gateway: the test cards', () => {
  it('covers every card of the table', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(TEST_CARDS.map((c) => c.number).sort());
  });

  it.each(Object.entries(EXPECTED))('%s behaves as the table says', async (card, want) => {
    const sessionToken = await newSession();
    const { threeDS, pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken,
      card,
      amountCents: AMOUNT,
      challenge: want.challenge,
    });
    expect(threeDS?.transStatus).toBe(want.transStatus);
    if (want.eci) expect(threeDS?.eci).toBe(want.eci);
    if (['R', 'U'].includes(want.transStatus)) {
      expect(threeDS?.transStatusReason).toBeTruthy();
      expect(threeDS?.authenticationValue).toBeUndefined();
      expect(pay).toBeNull();
      return;
    }
    expect(pay).toMatchObject(want.pay!);
    if (pay?.ssl_result === '0') {
      expect(pay.ssl_approval_code).toMatch(/^[A-Z0-9]{6}$/);
      expect(pay.ssl_txn_id).toBeTruthy();
      expect(pay.ssl_card_number).toBe(`${card.slice(0, 2)}**********${card.slice(-4)}`);
      expect(pay.ssl_amount).toBe('500.00');
    }
    if (pay?.errorCode) expect(pay.errorMessage).toBeTruthy();
  });

  it('4000000000000077 with "Fail authentication" ends N and no payment', async () => {
    const { threeDS, pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: await newSession(),
      card: '4000000000000077',
      amountCents: AMOUNT,
      challenge: 'fail',
    });
    expect(threeDS).toMatchObject({ transStatus: 'N', authenticated: false });
    expect(pay).toBeNull();
  });

  it('any other Luhn-valid number is approved frictionless; a Luhn-invalid one is error 5000', async () => {
    const ok = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: await newSession(),
      card: '4242424242424242',
      amountCents: AMOUNT,
    });
    expect(ok.threeDS?.transStatus).toBe('Y');
    expect(ok.pay?.ssl_result).toBe('0');
    const bad = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: await newSession(),
      card: '4000000000000003',
      amountCents: AMOUNT,
    });
    expect(bad.pay).toMatchObject({ errorCode: '5000', errorMessage: INVALID_CARD_MESSAGE });
  });

  it("declines an expiry in the past with 'EXPIRED CARD'; any CVC and future expiry work", async () => {
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: await newSession(),
      card: '4000000000000002',
      amountCents: AMOUNT,
      expiry: '0120',
    });
    expect(pay).toMatchObject({ ssl_result: '1', ssl_result_message: 'EXPIRED CARD' });
    const future = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: await newSession(),
      card: '4000000000000002',
      amountCents: AMOUNT,
      expiry: '0799',
    });
    expect(future.pay?.ssl_result).toBe('0');
  });
});

describe('sandbox gateway: sessions, credentials and queries', () => {
  it('a session token pays once; a second pay with it is an error', async () => {
    const sessionToken = await newSession();
    const first = await payWithSandbox(env.gatewayOrigin, {
      sessionToken,
      card: '4000000000000002',
      amountCents: AMOUNT,
    });
    expect(first.pay?.ssl_result).toBe('0');
    const again = await fetch(`${env.gatewayOrigin}/hosted-payments/process`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ssl_txn_auth_token: sessionToken,
        ssl_card_number: '4000000000000002',
        ssl_exp_date: '1230',
      }),
    }).then((r) => r.json());
    expect(again).toMatchObject({ errorCode: '4001' });
    // Nor does a used session get a new 3-D Secure token.
    const efs = await payWithSandbox(env.gatewayOrigin, {
      sessionToken,
      card: '4000000000000002',
      amountCents: AMOUNT,
    });
    expect(efs.pay).toMatchObject({ errorCode: '4017' });
  });

  it('refuses to charge on a failed or foreign 3-D Secure authentication', async () => {
    const post = (path: string, body: object) =>
      fetch(`${env.gatewayOrigin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, string>>);
    // A rejected authentication (R) reported to pay anyway: declined.
    const s1 = await newSession();
    const r1 = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: s1,
      card: '4000000000000119',
      amountCents: AMOUNT,
    });
    expect(r1.threeDS?.transStatus).toBe('R');
    const paid = await post('/hosted-payments/process', {
      ssl_txn_auth_token: s1,
      ssl_card_number: '4000000000000119',
      ssl_exp_date: '1230',
      ssl_3ds_server_trans_id: r1.threeDS!.threeDSServerTransID!,
    });
    expect(paid).toMatchObject({ ssl_result: '1' });
    expect(paid.ssl_approval_code).toBe('');
    // Another session's authentication: refused before any charge.
    const s2 = await newSession();
    const foreign = await post('/hosted-payments/process', {
      ssl_txn_auth_token: s2,
      ssl_card_number: '4000000000000119',
      ssl_exp_date: '1230',
      ssl_3ds_server_trans_id: r1.threeDS!.threeDSServerTransID!,
    });
    expect(foreign).toMatchObject({ errorCode: '4009' });
  });

  it('refuses wrong credentials like Converge (4025)', async () => {
    const c = await sandboxGatewayCredentials(env.ctx.db);
    const r = await fetch(`${env.gatewayOrigin}/hosted-payments/transaction_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ssl_merchant_id: c.merchantId,
        ssl_user_id: c.userId,
        ssl_pin: 'wrong',
        ssl_transaction_type: 'ccsale',
        ssl_amount: '500.00',
      }).toString(),
    });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ errorCode: '4025' });
  });

  it('3-D Secure refuses an amount other than the session’s', async () => {
    const sessionToken = await newSession(50000);
    const efs = await fetch(`${env.gatewayOrigin}/hosted-payments/efs_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ssl_txn_auth_token: sessionToken }),
    }).then((r) => r.json() as Promise<{ ssl_3ds2_token: string }>);
    const r = await fetch(`${env.gatewayOrigin}/3ds2/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${efs.ssl_3ds2_token}` },
      body: JSON.stringify({
        acctNumber: '4000000000000002',
        cardExpiryDate: '3012',
        purchaseAmount: '100',
        purchaseCurrency: '840',
        purchaseExponent: '2',
      }),
    });
    expect(r.status).toBe(400);
  });

  it('answers txnquery (through the adapter) for its transactions and null for unknown ids', async () => {
    const merchantTxnId = 'abcdef0123456789abcdef01';
    const sessionToken = await env.ctx.providers.gateway.createSessionToken({ amountCents: 12345, merchantTxnId });
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken,
      card: '5413330089604111',
      amountCents: 12345,
    });
    const t = await env.ctx.providers.gateway.queryTransaction(pay!.ssl_txn_id!);
    expect(t).toMatchObject({
      txnId: pay!.ssl_txn_id,
      approved: true,
      amountCents: 12345,
      merchantTxnId,
      approvalCode: pay!.ssl_approval_code,
      cardBrand: 'mastercard',
      last4: '4111',
    });
    expect(await env.ctx.providers.gateway.queryTransaction('010101A01-nope')).toBeNull();
  });

  it('keeps brand and last 4 only: no full card number in any sandbox table', async () => {
    const dump = JSON.stringify(
      await Promise.all(
        ['sandbox_gateway_session', 'sandbox_gateway_3ds', 'sandbox_gateway_transaction'].map(
          async (t) => (await env.ctx.db.query(`select * from ${t}`)).rows,
        ),
      ),
    );
    for (const c of TEST_CARDS) expect(dump).not.toContain(c.number);
    expect(dump).not.toContain('4242424242424242');
  });

  it('serves Checkout.js and the 3DS SDK, and allows the app origin only (CORS)', async () => {
    const js = await fetch(`${env.gatewayOrigin}/hosted-payments/Checkout.js`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(await js.text()).toContain('ConvergeEmbeddedPayment');
    const sdk = await fetch(`${env.gatewayOrigin}/3ds2/web-sdk.js`);
    expect(await sdk.text()).toContain('Elavon3DSWebSDK');
    const pre = (origin: string) =>
      fetch(`${env.gatewayOrigin}/hosted-payments/process`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const ok = await pre(env.ctx.config.publicUrl);
    expect(ok.headers.get('access-control-allow-origin')).toBe(env.ctx.config.publicUrl);
    const other = await pre('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends its scripts compressed and kept for good under their versioned URL (issue 30)', async () => {
    const urls = gatewayBrowserConfig(env.ctx.config);
    for (const url of [urls.checkoutJsUrl, urls.threeDSSdkUrl]) {
      expect(url).toMatch(/\?v=[\w-]{16}$/);
      // Node's fetch decodes what it is sent.
      const r = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(r.headers.get('content-encoding')).toBe('br');
      expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(r.headers.get('vary')).toMatch(/accept-encoding/i);
      const etag = r.headers.get('etag')!;
      expect(await r.text()).toMatch(/ConvergeEmbeddedPayment|Elavon3DSWebSDK/);
      // Another version (or none): revalidated, never kept for good.
      const old = await fetch(url.replace(/\?v=.*/, '?v=old'), { headers: { 'accept-encoding': 'gzip' } });
      expect(old.headers.get('cache-control')).toBe('no-cache');
      expect(old.headers.get('content-encoding')).toBe('gzip');
      const same = await fetch(url, { headers: { 'if-none-match': etag } });
      expect(same.status).toBe(304);
      const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
    }
    // Everything else stays uncached.
    const health = await fetch(`${env.gatewayOrigin}/healthz`);
    expect(health.headers.get('cache-control')).toBe('no-store');
  });
});
