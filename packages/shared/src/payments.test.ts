import { describe, expect, it } from 'vitest';
import { eciToSslEciInd, isThreeDSFailure, redactGatewayPayload, selectDeclineMessage } from './payments.js';

describe('eciToSslEciInd (docs/decisions/0050-eci-mapping.md)', () => {
  it.each([
    ['05', '5'],
    ['02', '5'],
    ['06', '6'],
    ['01', '6'],
    ['07', '7'],
    ['00', '7'],
    ['5', '5'],
    ['', '7'],
    [undefined, '7'],
  ])('%s → %s', (eci, want) => expect(eciToSslEciInd(eci)).toBe(want));
});

describe('isThreeDSFailure', () => {
  it('R, U, N and a missing status stop the payment; Y and A do not', () => {
    expect(['R', 'U', 'N', '', undefined].map(isThreeDSFailure)).toEqual([true, true, true, true, true]);
    expect(['Y', 'A'].map(isThreeDSFailure)).toEqual([false, false]);
  });
});

describe('selectDeclineMessage (spec section 8)', () => {
  it('errorMessage first, then CVV, then AVS, then the result message', () => {
    expect(selectDeclineMessage({ errorMessage: 'boom', ssl_cvv2_response: 'N' })).toEqual({
      kind: 'error',
      text: 'boom',
    });
    expect(selectDeclineMessage({ ssl_result_message: 'DECLINED CVV2', ssl_cvv2_response: 'N' })).toEqual({
      kind: 'cvv',
      code: 'N',
    });
    expect(
      selectDeclineMessage({ ssl_result_message: 'DECLINED', ssl_cvv2_response: 'M', ssl_avs_response: 'N' }),
    ).toEqual({ kind: 'avs', code: 'N' });
    expect(
      selectDeclineMessage({ ssl_result_message: 'DECLINED', ssl_cvv2_response: 'M', ssl_avs_response: 'Y' }),
    ).toEqual({ kind: 'result', text: 'DECLINED' });
  });
});

describe('redactGatewayPayload', () => {
  const PAN = '4000000000000051';
  const cases: [string, string][] = [
    ['JSON', JSON.stringify({ ssl_card_number: PAN, ssl_cvv2cvc2: '987', ssl_exp_date: '1230', ok: 'DECLINED' })],
    ['JSON in a JSON string', JSON.stringify({ payload: JSON.stringify({ acctNumber: PAN, cvc: 987 }) })],
    ['form', `ssl_card_number=${PAN}&ssl_cvv2cvc2=987&ssl_exp_date=1230&ok=DECLINED`],
    ['XML', `<txn><ssl_card_number>${PAN}</ssl_card_number><ssl_cvv2cvc2>987</ssl_cvv2cvc2><ok>1</ok></txn>`],
    ['spaced text', 'card 4000 0000 0000 0051 security code: 987'],
    ['dashed, glued to letters', 'acct4000-0000-0000-0051x CVV=987'],
    ['Amex 15 digits', 'number 370000000000051 cid 987'],
  ];
  it.each(cases)('%s: no full number, no CVC, last 4 kept', (_name, payload) => {
    const out = redactGatewayPayload(payload);
    expect(out.replace(/\D/g, ' ')).not.toMatch(/\d{5,}/);
    expect(out).not.toContain('987');
    expect(out).toContain('0051');
  });

  it('keeps what is safe: masked numbers, result codes, messages, short ids', () => {
    const payload = JSON.stringify({
      ssl_card_number: '40**********0051',
      ssl_result_message: 'DECLINED',
      ssl_cvv2_response: 'N',
      ssl_avs_response: 'Y',
      ssl_approval_code: 'CVI123',
      errorCode: '3003',
    });
    const out = redactGatewayPayload(payload);
    expect(JSON.parse(out)).toEqual(JSON.parse(payload));
  });

  it('removes expiry dates by key', () => {
    expect(redactGatewayPayload('{"cardExpiryDate":"3012"}')).toBe('{"cardExpiryDate":"[redacted]"}');
  });
});

describe('redactGatewayPayload: expiries in free text and magnetic-stripe data (issue 11, finding 6)', () => {
  it.each([
    ['exp 12/27 declined', '12/27'],
    ['Expires: 1227', '1227'],
    ['valid thru 12/2027', '12/2027'],
    ['card expiry date 09-28 refused', '09-28'],
    ['{"message":"card 07/29 expired"}', '07/29'],
  ])('%s loses %s', (payload, expiry) => {
    expect(redactGatewayPayload(payload)).not.toContain(expiry);
  });

  it('removes the track-2 remainder after a PAN (=YYMM, service code, discretionary data)', () => {
    const out = redactGatewayPayload('swiped ;4000000000000051=27121015432112345678? end');
    expect(out).toContain('0051');
    expect(out).not.toMatch(/2712|1015432112345678/);
    expect(out).toContain('end');
  });

  it('removes the track-1 name and remainder', () => {
    const out = redactGatewayPayload('%B4000000000000051^DIAZ/ANA^27121015432112345678?');
    expect(out).not.toMatch(/DIAZ|ANA|2712/);
    expect(out).toContain('0051');
  });

  it('keeps timestamps and amounts readable', () => {
    const text = '{"at":"2026-11-22T10:15:00Z","amount":"500.00","date":"11/22/2026"}';
    expect(redactGatewayPayload(text)).toBe(text);
  });
});
