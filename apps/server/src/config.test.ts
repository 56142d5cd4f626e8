import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('captcha settings', () => {
  // With the secret alone the server verifies every sign-in with Turnstile, but the browser gets no site key (the
  // sign-in options answer captchaSiteKey null), renders no widget and sends no token: siteverify fails closed and no
  // patient can ever get a code. Found by the production rehearsal (decision 0189).
  it('a Turnstile secret without its site key stops the server at boot', () => {
    const run = () => loadConfig({ PAYLINK_MODE: 'sandbox', TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/TURNSTILE_SITE_KEY is required with TURNSTILE_SECRET_KEY/);
    const both = loadConfig({
      PAYLINK_MODE: 'sandbox',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAsite',
    });
    expect(both.sandbox.captcha).toBe(false);
    // A site key alone is harmless: the captcha stays in sandbox mode and the browser is given no key.
    expect(loadConfig({ PAYLINK_MODE: 'sandbox', TURNSTILE_SITE_KEY: '0x4AAAAAAAsite' }).sandbox.captcha).toBe(true);
  });
});
