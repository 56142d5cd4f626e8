import { describe, expect, it } from 'vitest';
import { isValidTwilioSignature, twilioSignature } from './twilio-signature.js';

describe('Twilio webhook signature', () => {
  // The example of Twilio's own documentation and helper libraries.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = new URLSearchParams({
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675309',
    Digits: '1234',
    From: '+14158675309',
    To: '+18005551212',
  });

  it('matches Twilio’s documented example', () => {
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(isValidTwilioSignature({ authToken: '12345', url, params, header: 'RSOYDt4T1cUTdK1PDd93/VVr8B8=' })).toBe(
      true,
    );
  });

  it('refuses a missing header, another token, another URL or changed parameters', () => {
    const header = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';
    expect(isValidTwilioSignature({ authToken: '12345', url, params, header: undefined })).toBe(false);
    expect(isValidTwilioSignature({ authToken: '54321', url, params, header })).toBe(false);
    expect(
      isValidTwilioSignature({ authToken: '12345', url: 'http://mycompany.com/myapp.php?foo=1&bar=2', params, header }),
    ).toBe(false);
    const changed = new URLSearchParams(params);
    changed.set('Digits', '1235');
    expect(isValidTwilioSignature({ authToken: '12345', url, params: changed, header })).toBe(false);
    expect(isValidTwilioSignature({ authToken: '12345', url, params, header: 'short' })).toBe(false);
  });
});
