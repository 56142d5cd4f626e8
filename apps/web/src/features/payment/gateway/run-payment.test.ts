import { describe, expect, it } from 'vitest';
import type { CardForm } from '../card-form';
import { approval, fakeGateway, frictionless } from '../../../test/fake-gateway';
import { paymentLogPayload } from './log-payload';
import { runPayment } from './run-payment';

const card: CardForm = {
  FullName: 'Mary Ann Smith',
  CardNumber: '4000000000000002',
  ExpirationDate: '0730',
  Cvc: '987',
  BillingZip: ' 90210 ',
  BillingAddress: '1 Main St',
  BillingCity: 'Beverly Hills',
  BillingState: 'California',
  PayorEmail: '',
  ReceiptEmail: '',
  Agreed: true,
};
const base = { threeDSBaseUrl: 'https://gw.example/3ds2', sessionToken: 'session-tok', amountCents: 50000, card };

describe('runPayment', () => {
  it('runs 3-D Secure in a lightbox and pays with the spec fields', async () => {
    const gateway = fakeGateway();
    const outcome = await runPayment({ ...base, gateway });
    expect(outcome).toEqual({ kind: 'approved', response: approval });
    expect(gateway.calls.efs).toEqual([{ ssl_txn_auth_token: 'session-tok' }]);
    expect(gateway.calls.sdk).toEqual([{ baseUrl: 'https://gw.example/3ds2', token: '3ds-token' }]);
    expect(gateway.calls.threeDS).toEqual([
      {
        messageId: 'EFSTransaction',
        purchaseAmount: '50000',
        purchaseCurrency: '840',
        purchaseExponent: '2',
        acctNumber: '4000000000000002',
        cardExpiryDate: '3007',
        messageCategory: '01',
        transType: '01',
        challengeWindowSize: '02',
        displayMode: 'lightbox',
      },
    ]);
    expect(gateway.calls.pay).toEqual([
      {
        ssl_txn_auth_token: 'session-tok',
        ssl_card_number: '4000000000000002',
        ssl_exp_date: '0730',
        ssl_get_token: 'Y',
        ssl_add_token: 'Y',
        ssl_first_name: 'Mary Ann',
        ssl_last_name: 'Smith',
        ssl_cvv2cvc2: '987',
        ssl_avs_address: '1 Main St',
        ssl_avs_zip: '90210',
        ssl_city: 'Beverly Hills',
        ssl_program_protocol: '2',
        ssl_dir_server_tran_id: 'ds-1',
        ssl_eci_ind: '5',
        ssl_3dsecure_value: 'AAABBBCCC=',
        ssl_3ds_message_version: '2.2.0',
        ssl_3ds_trans_status: 'Y',
        ssl_3ds_trans_status_reason: '',
        ssl_3ds_server_trans_id: 'srv-1',
        ssl_merchant_txn_id: '',
      },
    ]);
  });

  it.each([
    ['05', '5'],
    ['02', '5'],
    ['06', '6'],
    ['01', '6'],
    ['07', '7'],
    ['00', '7'],
  ])('sends ECI %s as ssl_eci_ind %s', async (eci, ind) => {
    const gateway = fakeGateway({ threeDS: async () => ({ ...frictionless, transStatus: 'A', eci }) });
    await runPayment({ ...base, gateway });
    expect(gateway.calls.pay[0]?.ssl_eci_ind).toBe(ind);
  });

  it.each(['R', 'U', 'N', undefined])('does not pay when 3-D Secure ends %s', async (transStatus) => {
    const result = { transStatus, transStatusReason: '01' };
    const gateway = fakeGateway({ threeDS: async () => result });
    const outcome = await runPayment({ ...base, gateway });
    expect(outcome).toEqual({ kind: 'threeDSFailed', result });
    expect(gateway.calls.pay).toHaveLength(0);
  });

  it('reports a decline and a gateway error from pay', async () => {
    const declined = { ssl_result_message: 'DECLINED', ssl_cvv2_response: 'N' };
    const d = await runPayment({ ...base, gateway: fakeGateway({ pay: (_d, cb) => cb.onDeclined?.(declined) }) });
    expect(d).toEqual({ kind: 'declined', response: declined });
    const err = { errorCode: '5000', errorMessage: 'The Credit Card Number supplied ... appears to be invalid.' };
    const e = await runPayment({ ...base, gateway: fakeGateway({ pay: (_d, cb) => cb.onError?.(err) }) });
    expect(e).toEqual({ kind: 'error', response: err });
  });

  it('stops before 3-D Secure when the token request fails', async () => {
    const gateway = fakeGateway({ efs: (cb) => cb.onError?.({ errorCode: 4017, errorMessage: 'Time-Out' }) });
    const outcome = await runPayment({ ...base, gateway });
    expect(outcome).toEqual({ kind: 'error', response: { errorCode: 4017, errorMessage: 'Time-Out' } });
    expect(gateway.calls.threeDS).toHaveLength(0);
    expect(gateway.calls.pay).toHaveLength(0);
  });

  it('tells a failing 3-D Secure script apart from a decline', async () => {
    const gateway = fakeGateway({ threeDS: () => Promise.reject(new Error('network down')) });
    expect(await runPayment({ ...base, gateway })).toEqual({ kind: 'unavailable', reason: 'network down' });
    expect(gateway.calls.pay).toHaveLength(0);
  });
});

describe('paymentLogPayload', () => {
  it('keeps the answer but never a card number, expiry or CVC', () => {
    const payload = paymentLogPayload({
      kind: 'declined',
      response: {
        ssl_result_message: 'DECLINED',
        ssl_cvv2_response: 'N',
        ssl_card_number: '4000000000000051',
        ssl_cvv2cvc2: '123',
        ssl_exp_date: '0730',
        note: 'card 4000 0000 0000 0051',
      },
    });
    const parsed = JSON.parse(payload);
    expect(parsed).toMatchObject({ kind: 'declined', ssl_result_message: 'DECLINED', ssl_cvv2_response: 'N' });
    expect(payload).not.toContain('4000000000000051');
    expect(payload).not.toContain('4000 0000 0000 0051');
    expect(payload).not.toMatch(/cvv2cvc2|ssl_exp_date|0730/);
    expect(parsed.ssl_card_number).toBe('************0051');
  });
  it('logs a 3-D Secure failure with its status and the last 4 of the card tried', () => {
    const payload = paymentLogPayload(
      { kind: 'threeDSFailed', result: { transStatus: 'R' } },
      { cardNumber: '4000000000000119' },
    );
    expect(JSON.parse(payload)).toEqual({ kind: 'threeDSFailed', cardLast4: '0119', threeDS: { transStatus: 'R' } });
    expect(payload).not.toContain('4000000000000119');
  });
});
