import { afterEach, describe, expect, it } from 'vitest';
import { UPDATE_CARD_PATH, afterSignIn, forgetCardIntent, rememberCardIntent } from './card-intent';

describe('the update-card intent of a sign-in (decision 0211)', () => {
  afterEach(() => window.localStorage.clear());

  it('goes to the update-card page when the link says next=card, else to /patientinfo', () => {
    expect(afterSignIn('L1', '?id=L1&next=card')).toBe(UPDATE_CARD_PATH);
    expect(afterSignIn('L1', '?id=L1')).toBe('/patientinfo');
  });

  it('remembers it per link for the e-mailed sign-in link (which comes back without the parameter), once', () => {
    rememberCardIntent('L1', '?id=L1&next=card');
    expect(afterSignIn('L1', '?id=L1&mode=signIn&oobCode=x')).toBe(UPDATE_CARD_PATH);
    expect(afterSignIn('L2', '?id=L2')).toBe('/patientinfo');
    forgetCardIntent();
    expect(afterSignIn('L1', '?id=L1')).toBe('/patientinfo');
    rememberCardIntent('L1', '?id=L1');
    expect(afterSignIn('L1', '?id=L1')).toBe('/patientinfo');
  });
});
