import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { gatewayBrowserConfig, gatewayCspOrigins } from './browser-config.js';
import {
  buildReversalXml,
  buildSessionTokenForm,
  buildStoredCardSaleXml,
  buildTxnQueryXml,
  buildVerifySessionForm,
  convergeEndpoints,
  createConvergeGateway,
  parseReversalAnswer,
  transactionFromConverge,
} from './converge.js';
import { parseConvergeXml } from './converge-protocol.js';
import { GatewayError } from './types.js';

/**
 * The Converge adapter against a local HTTP server that answers like Converge's documentation shows: plain-text
 * session tokens, and XML for txnquery (a txnlist with ssl_txn_count, or a txn with errorCode/errorName/errorMessage).
 */
const CREDS = { merchantId: '0012345', userId: 'apiuser', pin: 'P'.repeat(64) };
const APPROVED_ID = '191120A15-3C2E5C4E-6B1A-4B21-9F0E-2D8C43B7E7C1';
const DECLINED_ID = '191120A15-DECLINED';
const REVIEW_ID = '191120A15-REVIEW';

const RECORDED = {
  token: 'Q0VFQTg0MzctMzhDQy00NjAyLUJFNjAtMUE1MjE4MTFCQzc2',
  approved: `<?xml version="1.0" encoding="UTF-8"?>
<txnlist><ssl_txn_count>1</ssl_txn_count><txn><ssl_txn_id>${APPROVED_ID}</ssl_txn_id><ssl_user_id>apiuser</ssl_user_id>
<ssl_trans_status>STL</ssl_trans_status><ssl_card_type>CREDITCARD</ssl_card_type><ssl_transaction_type>SALE</ssl_transaction_type>
<ssl_txn_time>11/19/2020 10:15:39 AM</ssl_txn_time><ssl_first_name>Ana</ssl_first_name><ssl_last_name>Garc&#237;a &amp; Co</ssl_last_name>
<ssl_card_number>41**********1111</ssl_card_number><ssl_exp_date>1230</ssl_exp_date><ssl_entry_mode>01</ssl_entry_mode>
<ssl_avs_response>Y</ssl_avs_response><ssl_cvv2_response>M</ssl_cvv2_response><ssl_amount>500.00</ssl_amount>
<ssl_invoice_number/><ssl_result_message>APPROVAL</ssl_result_message><ssl_approval_code>CVI123</ssl_approval_code>
<ssl_card_short_description>VISA</ssl_card_short_description><ssl_merchant_txn_id>abcdef0123456789abcdef01</ssl_merchant_txn_id>
</txn></txnlist>`,
  declined: `<txnlist><ssl_txn_count>1</ssl_txn_count><txn><ssl_txn_id>${DECLINED_ID}</ssl_txn_id>
<ssl_trans_status>PEN</ssl_trans_status><ssl_transaction_type>SALE</ssl_transaction_type><ssl_amount>500.00</ssl_amount>
<ssl_result_message>DECLINED</ssl_result_message><ssl_approval_code></ssl_approval_code>
<ssl_card_short_description>MC</ssl_card_short_description><ssl_card_number>54**********4111</ssl_card_number></txn></txnlist>`,
  review: `<txnlist><ssl_txn_count>1</ssl_txn_count><txn><ssl_txn_id>${REVIEW_ID}</ssl_txn_id>
<ssl_trans_status>FPR</ssl_trans_status><ssl_transaction_type>SALE</ssl_transaction_type><ssl_amount>500.00</ssl_amount>
<ssl_result_message>APPROVAL</ssl_result_message><ssl_approval_code>CVI999</ssl_approval_code></txn></txnlist>`,
  none: '<txnlist><ssl_txn_count>0</ssl_txn_count></txnlist>',
  badCreds:
    '<txn><errorCode>4025</errorCode><errorName>Invalid Credentials</errorName><errorMessage>The credentials supplied in the authorization request are invalid.</errorMessage></txn>',
  invalidToken:
    '<txn><errorCode>5000</errorCode><errorName>Invalid Token</errorName><errorMessage>The token is not stored.</errorMessage></txn>',
  invalidTxn:
    '<txn><errorCode>5040</errorCode><errorName>Invalid Transaction ID</errorName><errorMessage>The transaction ID is invalid for this transaction type.</errorMessage></txn>',
};

let server: http.Server;
let base: string;
const seen: { url: string; contentType: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
      const form = new URLSearchParams(body);
      if (req.url === '/hosted-payments/transaction_token') {
        if (form.get('ssl_amount') === '13.13') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Error: 4009</body></html>');
          return;
        }
        if (form.get('ssl_pin') !== CREDS.pin) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"errorCode":"4025"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end(RECORDED.token);
        return;
      }
      if (req.url === '/VirtualMerchantDemo/processxml.do') {
        const xml = form.get('xmldata') ?? '';
        const id = parseConvergeXml(xml).txns[0]?.ssl_txn_id;
        const pin = parseConvergeXml(xml).txns[0]?.ssl_pin;
        const sale = parseConvergeXml(xml).txns[0];
        if (sale?.ssl_transaction_type === 'ccsale') {
          // Token sales by amount: 150 approved, 151 declined NSF, 152 refused, 153 HTTP 502, 154 connection dropped.
          if (sale.ssl_amount === '153.00') return void res.writeHead(502).end('<html>Bad Gateway</html>');
          if (sale.ssl_amount === '154.00') return void req.socket.destroy();
          res.writeHead(200, { 'content-type': 'application/xml' });
          if (sale.ssl_amount === '152.00') return void res.end(RECORDED.invalidToken);
          const approved = sale.ssl_amount === '150.00';
          return void res.end(
            `<txn><ssl_result>${approved ? 0 : 1}</ssl_result><ssl_result_message>${approved ? 'APPROVAL' : 'DECLINED: NSF'}</ssl_result_message>` +
              `<ssl_txn_id>TOKEN-SALE-1</ssl_txn_id><ssl_approval_code>${approved ? 'CVI777' : ''}</ssl_approval_code>` +
              `<ssl_amount>${sale.ssl_amount}</ssl_amount><ssl_card_number>41**********1111</ssl_card_number>` +
              `<ssl_card_short_description>VISA</ssl_card_short_description><ssl_token>${sale.ssl_token}</ssl_token>` +
              `<ssl_token_response>SUCCESS</ssl_token_response><ssl_exp_date>1230</ssl_exp_date>` +
              `<ssl_issuer_response>${approved ? '00' : '51'}</ssl_issuer_response>` +
              `<ssl_merchant_txn_id>${sale.ssl_merchant_txn_id}</ssl_merchant_txn_id></txn>`,
          );
        }
        res.writeHead(200, { 'content-type': 'application/xml' });
        if (pin !== CREDS.pin) return void res.end(RECORDED.badCreds);
        if (id === APPROVED_ID) return void res.end(RECORDED.approved);
        if (id === DECLINED_ID) return void res.end(RECORDED.declined);
        if (id === REVIEW_ID) return void res.end(RECORDED.review);
        if (id === 'bad-id') return void res.end(RECORDED.invalidTxn);
        return void res.end(RECORDED.none);
      }
      res.writeHead(500).end('Server Error');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

const gateway = (creds = CREDS) =>
  createConvergeGateway({ credentials: creds, endpoints: convergeEndpoints('demo', base) });

describe('Converge request building', () => {
  it('session token: form fields in Converge names, dollars with 2 decimals, our attempt id', () => {
    const form = buildSessionTokenForm(CREDS, {
      amountCents: 50050,
      merchantTxnId: 'abcdef0123456789abcdef01',
      firstName: 'Anastasia Maria Josefina',
      lastName: 'García',
    });
    expect(Object.fromEntries(form)).toEqual({
      ssl_merchant_id: '0012345',
      ssl_user_id: 'apiuser',
      ssl_pin: CREDS.pin,
      ssl_transaction_type: 'ccsale',
      ssl_amount: '500.50',
      ssl_merchant_txn_id: 'abcdef0123456789abcdef01',
      ssl_invoice_number: 'abcdef0123456789abcdef01',
      ssl_first_name: 'Anastasia Maria Jose',
      ssl_last_name: 'García',
    });
    expect(() => buildSessionTokenForm(CREDS, { amountCents: 0, merchantTxnId: 'x' })).toThrow(GatewayError);
  });

  it('txnquery: one flat <txn> with escaped values', () => {
    expect(buildTxnQueryXml({ ...CREDS, pin: 'a<b&c' }, 'T-1')).toBe(
      '<txn><ssl_merchant_id>0012345</ssl_merchant_id><ssl_user_id>apiuser</ssl_user_id><ssl_pin>a&lt;b&amp;c</ssl_pin>' +
        '<ssl_transaction_type>txnquery</ssl_transaction_type><ssl_txn_id>T-1</ssl_txn_id></txn>',
    );
  });

  it('endpoints per CONVERGE_ENV', () => {
    expect(convergeEndpoints('demo')).toEqual({
      apiBase: 'https://api.demo.convergepay.com',
      xmlUrl: 'https://api.demo.convergepay.com/VirtualMerchantDemo/processxml.do',
    });
    expect(convergeEndpoints('production')).toEqual({
      apiBase: 'https://api.convergepay.com',
      xmlUrl: 'https://api.convergepay.com/VirtualMerchant/processxml.do',
    });
  });
});

describe('Converge answers', () => {
  it('parses a recorded approved txnquery answer', () => {
    const { list, txns } = parseConvergeXml(RECORDED.approved);
    expect(list.ssl_txn_count).toBe('1');
    expect(txns[0]!.ssl_last_name).toBe('García & Co');
    expect(txns[0]!.ssl_invoice_number).toBe('');
    expect(transactionFromConverge(txns[0]!)).toEqual({
      txnId: APPROVED_ID,
      approved: true,
      resultMessage: 'APPROVAL',
      amountCents: 50000,
      merchantTxnId: 'abcdef0123456789abcdef01',
      approvalCode: 'CVI123',
      cardBrand: 'visa',
      last4: '1111',
      transactionType: 'SALE',
      transStatus: 'STL',
      settled: true,
      avsResponse: 'Y',
      cvv2Response: 'M',
      eciInd: null,
      threeDSTransStatus: null,
      txnTime: '11/19/2020 10:15:39 AM',
    });
  });

  it('reads answers a regex would misread: attributes, CDATA, entities, comments, nesting, reordered fields', () => {
    // A decline whose commented-out and nested copies of ssl_result/ssl_amount say "approved, $1.00".
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<txnlist>
  <!-- <ssl_txn_count>9</ssl_txn_count> -->
  <txn>
    <ssl_amount currency="USD">500.00</ssl_amount>
    <!-- <ssl_result>0</ssl_result><ssl_amount>1.00</ssl_amount> -->
    <ssl_result_message><![CDATA[DECLINED <CVV2> & more]]></ssl_result_message>
    <ssl_result type="int">1</ssl_result>
    <ssl_first_name>Ana &#38; Luis &lt;x&gt;</ssl_first_name>
    <ssl_risk><ssl_result>0</ssl_result></ssl_risk>
    <ssl_txn_id>${DECLINED_ID}</ssl_txn_id>
  </txn>
  <ssl_txn_count>1</ssl_txn_count>
</txnlist>`;
    const { list, txns } = parseConvergeXml(xml);
    expect(list).toEqual({ ssl_txn_count: '1' });
    expect(txns).toHaveLength(1);
    expect(txns[0]).toMatchObject({
      ssl_amount: '500.00',
      ssl_result: '1',
      ssl_result_message: 'DECLINED <CVV2> & more',
      ssl_first_name: 'Ana & Luis <x>',
      ssl_txn_id: DECLINED_ID,
    });
    expect(transactionFromConverge(txns[0]!)).toMatchObject({ approved: false, amountCents: 50000 });
  });

  it('reads nothing from an answer that is not XML', () => {
    expect(parseConvergeXml('Bad Gateway <<')).toEqual({ list: {}, txns: [] });
    expect(parseConvergeXml('')).toEqual({ list: {}, txns: [] });
  });

  it('binds by invoice number when the answer has no ssl_merchant_txn_id', () => {
    const t = transactionFromConverge({
      ssl_txn_id: 'X',
      ssl_result_message: 'APPROVAL',
      ssl_amount: '10.00',
      ssl_invoice_number: 'abcdef0123456789abcdef01',
    });
    expect(t).toMatchObject({ approved: true, amountCents: 1000, merchantTxnId: 'abcdef0123456789abcdef01' });
  });

  it('gets a session token over HTTP as form-urlencoded', async () => {
    seen.length = 0;
    const token = await gateway().createSessionToken({ amountCents: 50000, merchantTxnId: 'abcdef0123456789abcdef01' });
    expect(token).toBe(RECORDED.token);
    expect(seen[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(seen[0]!.body).get('ssl_amount')).toBe('500.00');
  });

  it('turns refusals and non-token answers into GatewayError', async () => {
    await expect(
      gateway({ ...CREDS, pin: 'wrong' }).createSessionToken({ amountCents: 100, merchantTxnId: 'x' }),
    ).rejects.toMatchObject({ name: 'GatewayError', code: '4025' });
    await expect(gateway().createSessionToken({ amountCents: 1313, merchantTxnId: 'x' })).rejects.toBeInstanceOf(
      GatewayError,
    );
    const down = createConvergeGateway({
      credentials: CREDS,
      endpoints: convergeEndpoints('demo', 'http://127.0.0.1:9'),
    });
    await expect(down.queryTransaction('x')).rejects.toBeInstanceOf(GatewayError);
  });

  it('queries transactions: approved, declined, parked for review, unknown, and errors', async () => {
    const g = gateway();
    expect(await g.queryTransaction(APPROVED_ID)).toMatchObject({ approved: true, amountCents: 50000, last4: '1111' });
    expect(await g.queryTransaction(DECLINED_ID)).toMatchObject({ approved: false, cardBrand: 'mastercard' });
    expect(await g.queryTransaction(REVIEW_ID)).toMatchObject({ approved: false, transStatus: 'FPR' });
    expect(await g.queryTransaction('unknown')).toBeNull();
    expect(await g.queryTransaction('bad-id')).toBeNull();
    await expect(gateway({ ...CREDS, pin: 'nope' }).queryTransaction(APPROVED_ID)).rejects.toMatchObject({
      code: '4025',
    });
    const xmldata = new URLSearchParams(seen.at(-1)!.body).get('xmldata')!;
    expect(parseConvergeXml(xmldata).txns[0]).toMatchObject({
      ssl_transaction_type: 'txnquery',
      ssl_txn_id: APPROVED_ID,
    });
  });
});

describe('browser config and CSP', () => {
  const base = { NODE_ENV: 'test', PAYLINK_MODE: 'sandbox' } as const;
  it('sandbox: the gateway origin serves both scripts', () => {
    const c = loadConfig({ ...base, GATEWAY_ORIGIN: 'http://127.0.0.1:9999' });
    expect(gatewayBrowserConfig(c)).toEqual({
      // The sandbox's scripts are asked for under a version of their text, so the gateway can cache them for good.
      checkoutJsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9999\/hosted-payments\/Checkout\.js\?v=[\w-]+$/),
      threeDSSdkUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9999\/3ds2\/web-sdk\.js\?v=[\w-]+$/),
      threeDSBaseUrl: 'http://127.0.0.1:9999/3ds2',
    });
    expect(gatewayCspOrigins(c)).toEqual({
      script: ['http://127.0.0.1:9999'],
      connect: ['http://127.0.0.1:9999'],
      frame: ['http://127.0.0.1:9999'],
    });
  });

  it('Converge demo vs production, with overrides', () => {
    const creds = { CONVERGE_MERCHANT_ID: '1', CONVERGE_USER_ID: 'u', CONVERGE_PIN: 'p' };
    const demo = loadConfig({ ...base, ...creds });
    expect(gatewayBrowserConfig(demo).checkoutJsUrl).toBe(
      'https://api.demo.convergepay.com/hosted-payments/Checkout.js',
    );
    const prod = loadConfig({ ...base, ...creds, CONVERGE_ENV: 'production' });
    expect(gatewayBrowserConfig(prod)).toMatchObject({
      checkoutJsUrl: 'https://api.convergepay.com/hosted-payments/Checkout.js',
      threeDSBaseUrl: 'https://gw.fraud.elavongateway.com/3ds2',
    });
    expect(gatewayCspOrigins(prod)).toEqual({
      script: ['https://api.convergepay.com', 'https://libs.fraud.elavongateway.com'],
      connect: ['https://api.convergepay.com', 'https://gw.fraud.elavongateway.com'],
      frame: ['https://gw.fraud.elavongateway.com', 'https://api.convergepay.com'],
    });
    const custom = loadConfig({
      ...base,
      ...creds,
      CONVERGE_3DS_SDK_URL: 'https://sdk.example/v9/sdk.js',
      CONVERGE_3DS_FRAME_ORIGINS: 'https://acs.bank.example, https://acs2.bank.example/path',
    });
    expect(gatewayBrowserConfig(custom).threeDSSdkUrl).toBe('https://sdk.example/v9/sdk.js');
    expect(gatewayCspOrigins(custom).frame).toEqual(
      expect.arrayContaining(['https://acs.bank.example', 'https://acs2.bank.example']),
    );
  });
});

describe('Converge ccvoid / ccreturn (pure)', () => {
  it('builds ccvoid without an amount and ccreturn with ssl_amount in dollars for a partial return', () => {
    const v = parseConvergeXml(buildReversalXml(CREDS, 'void', APPROVED_ID)).txns[0]!;
    expect(v).toMatchObject({ ssl_transaction_type: 'ccvoid', ssl_txn_id: APPROVED_ID });
    expect(v.ssl_amount).toBeUndefined();
    const r = parseConvergeXml(buildReversalXml(CREDS, 'return', APPROVED_ID, 12345)).txns[0]!;
    expect(r).toMatchObject({ ssl_transaction_type: 'ccreturn', ssl_amount: '123.45' });
    expect(parseConvergeXml(buildReversalXml(CREDS, 'return', APPROVED_ID)).txns[0]!.ssl_amount).toBeUndefined();
  });

  it('reads the approval with its own id; errors and non-zero results are refusals', () => {
    const ok = parseReversalAnswer(
      'return',
      '<txn><ssl_result>0</ssl_result><ssl_result_message>APPROVAL</ssl_result_message><ssl_txn_id>R1</ssl_txn_id><ssl_amount>10.00</ssl_amount></txn>',
    );
    expect(ok).toEqual({ kind: 'return', txnId: 'R1', amountCents: 1000, resultMessage: 'APPROVAL' });
    let err: GatewayError | undefined;
    try {
      parseReversalAnswer('void', '<txn><errorCode>5040</errorCode><errorMessage>Invalid</errorMessage></txn>');
    } catch (e) {
      err = e as GatewayError;
    }
    expect(err).toMatchObject({ code: '5040', refused: true });
    expect(() => parseReversalAnswer('void', '<txn><ssl_result>1</ssl_result></txn>')).toThrow(GatewayError);
  });

  it('reports settlement from ssl_trans_status', () => {
    expect(transactionFromConverge({ ssl_txn_id: 'a', ssl_trans_status: 'STL' }).settled).toBe(true);
    for (const s of ['PEN', 'OPN', 'REV', '']) {
      expect(transactionFromConverge({ ssl_txn_id: 'a', ssl_trans_status: s }).settled).toBe(false);
    }
  });
});

describe('Converge stored cards (merchant-managed card tokens)', () => {
  const TOKEN = '4421912014031111';
  const req = (amountCents: number) => ({
    token: TOKEN,
    amountCents,
    merchantTxnId: 'plan0123456789abcdef0001',
    installment: { number: 2, count: 3 },
    firstSale: { approvalCode: 'CVI123', ps2000Data: 'A1234567890123456789' },
  });

  it('a deposit that stores the card asks for the token on the session (ssl_get_token, ssl_add_token)', () => {
    const form = buildSessionTokenForm(CREDS, { amountCents: 100, merchantTxnId: 'x', storeCard: true });
    expect(form.get('ssl_get_token')).toBe('Y');
    expect(form.get('ssl_add_token')).toBe('Y');
    expect(buildSessionTokenForm(CREDS, { amountCents: 100, merchantTxnId: 'x' }).has('ssl_get_token')).toBe(false);
  });

  it('an instalment is a ccsale with the token, ssl_recurring_flag 2, the payment number and count', () => {
    const f = parseConvergeXml(buildStoredCardSaleXml(CREDS, req(15000))).txns[0]!;
    expect(f).toMatchObject({
      ssl_transaction_type: 'ccsale',
      ssl_amount: '150.00',
      ssl_token: TOKEN,
      ssl_recurring_flag: '2',
      ssl_payment_number: '2',
      ssl_payment_count: '3',
      ssl_approval_code: 'CVI123',
      ssl_ps2000_data: 'A1234567890123456789',
      ssl_merchant_txn_id: 'plan0123456789abcdef0001',
    });
    // No card data: Card Manager holds the number and expiry.
    expect(f.ssl_card_number).toBeUndefined();
    expect(f.ssl_exp_date).toBeUndefined();
    expect(() => buildStoredCardSaleXml(CREDS, { ...req(100), installment: { number: 4, count: 3 } })).toThrow(
      GatewayError,
    );
    expect(() => buildStoredCardSaleXml(CREDS, { ...req(100), token: '4111 1111' })).toThrow(GatewayError);
    // The business clock goes to the sandbox only (decision 0246): Converge never gets the field.
    const asOf = new Date('2099-03-10T15:00:00Z');
    const real = parseConvergeXml(buildStoredCardSaleXml(CREDS, { ...req(100), asOf })).txns[0]!;
    expect(real.sandbox_now).toBeUndefined();
    const sandbox = parseConvergeXml(buildStoredCardSaleXml(CREDS, { ...req(100), asOf }, { sandbox: true })).txns[0]!;
    expect(sandbox.sandbox_now).toBe('2099-03-10T15:00:00.000Z');
  });

  it('approved and declined answers are transactions; the token and expiry are read from answers', async () => {
    const ok = await gateway().chargeStoredCard(req(15000));
    expect(ok).toMatchObject({
      approved: true,
      txnId: 'TOKEN-SALE-1',
      amountCents: 15000,
      approvalCode: 'CVI777',
      cardToken: TOKEN,
      cardExpiry: '1230',
      issuerResponse: '00',
      merchantTxnId: 'plan0123456789abcdef0001',
    });
    const no = await gateway().chargeStoredCard(req(15100));
    expect(no).toMatchObject({ approved: false, resultMessage: 'DECLINED: NSF', issuerResponse: '51' });
  });

  it('a refusal is refused=true; an HTTP error or a dropped connection is unknown (refused=false)', async () => {
    await expect(gateway().chargeStoredCard(req(15200))).rejects.toMatchObject({ refused: true, code: '5000' });
    await expect(gateway().chargeStoredCard(req(15300))).rejects.toMatchObject({ refused: false });
    await expect(gateway().chargeStoredCard(req(15400))).rejects.toMatchObject({ refused: false });
  });

  it('a new card for a plan is a ccverify session of 0.00 that tokenises and stores it (decision 0211)', () => {
    const form = buildVerifySessionForm(CREDS, {
      merchantTxnId: 'upd0123456789abcdef00001',
      firstName: 'Ana',
      lastName: 'Diaz',
    });
    expect(Object.fromEntries(form)).toMatchObject({
      ssl_transaction_type: 'ccverify',
      ssl_amount: '0.00',
      ssl_get_token: 'Y',
      ssl_add_token: 'Y',
      ssl_merchant_txn_id: 'upd0123456789abcdef00001',
      ssl_first_name: 'Ana',
      ssl_last_name: 'Diaz',
    });
  });

  it('a verification answer is verified, never approved (it is not a sale)', () => {
    const base = {
      ssl_txn_id: 'V-1',
      ssl_result: '0',
      ssl_result_message: 'APPROVAL',
      ssl_amount: '0.00',
      ssl_token: TOKEN,
      ssl_token_response: 'SUCCESS',
      ssl_exp_date: '1230',
      ssl_approval_code: 'CVI888',
      ssl_ps2000_data: 'B1234567890123456789',
    };
    expect(transactionFromConverge({ ...base, ssl_transaction_type: 'VERIFY' })).toMatchObject({
      approved: false,
      verified: true,
      cardToken: TOKEN,
      cardExpiry: '1230',
      approvalCode: 'CVI888',
      ps2000Data: 'B1234567890123456789',
    });
    expect(transactionFromConverge({ ...base, ssl_transaction_type: 'VERIFY', ssl_result: '1' }).verified).toBe(false);
    expect(transactionFromConverge({ ...base, ssl_transaction_type: 'SALE' }).verified).toBeUndefined();
  });
});
