import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTurnstileStandIn, type TurnstileStandIn } from '../../../../e2e/support/stand-ins/turnstile.js';
import { loadConfig } from '../../src/config.js';
import { loadCaptchaProvider } from '../../src/providers/captcha/load-captcha.js';

/**
 * The production rehearsal's captcha (decision 0189): the real Turnstile adapter, configured from TURNSTILE_* as a
 * practice configures it, verifies at the siteverify stand-in; the stand-in's widget script speaks the JavaScript API
 * the patient app calls (render with execution 'execute', execute, callback, remove).
 */
let turnstile: TurnstileStandIn;
beforeAll(async () => {
  turnstile = await startTurnstileStandIn();
});
afterAll(async () => turnstile?.stop());

const captchaWith = (secret: string) =>
  loadCaptchaProvider(
    loadConfig({
      PAYLINK_MODE: 'sandbox',
      TURNSTILE_SITE_KEY: turnstile.siteKey,
      TURNSTILE_SECRET_KEY: secret,
      TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
    }),
  );

/** Runs the widget script as a browser would and asks it for a token the way apps/web/src/features/auth/turnstile.ts does. */
async function widgetToken(siteKey: string): Promise<string> {
  const script = await (await fetch(turnstile.scriptUrl)).text();
  const el = {
    children: [] as unknown[],
    appendChild(c: unknown) {
      this.children.push(c);
    },
  };
  const window: Record<string, unknown> = {};
  const context = vm.createContext({
    window,
    crypto: globalThis.crypto,
    setTimeout,
    document: { createElement: () => ({}), querySelector: () => el },
  });
  vm.runInContext(script, context);
  const api = window.turnstile as {
    render(el: unknown, opts: Record<string, unknown>): string;
    execute(id: string): void;
    remove(id: string): void;
  };
  return new Promise((resolve, reject) => {
    const id = api.render(el, {
      sitekey: siteKey,
      size: 'invisible',
      execution: 'execute',
      appearance: 'interaction-only',
      callback: (token: string) => {
        resolve(token);
        api.remove(id);
      },
      'error-callback': () => reject(new Error('widget error')),
    });
    api.execute(id);
  });
}

describe('Turnstile adapter ↔ the siteverify stand-in', () => {
  it("a token from the stand-in's widget passes once; a second use is a duplicate", async () => {
    const captcha = captchaWith(turnstile.secretKey);
    expect(captcha.siteKey).toBe(turnstile.siteKey);
    const token = await widgetToken(turnstile.siteKey);
    expect(await captcha.verify({ token, remoteIp: '203.0.113.7' })).toEqual({ ok: true, errorCodes: [] });
    expect(turnstile.verifications.at(-1)).toMatchObject({ response: token, remoteip: '203.0.113.7', success: true });
    expect(await captcha.verify({ token })).toEqual({ ok: false, errorCodes: ['timeout-or-duplicate'] });
  });

  it('a forged token, a token for another site key, and a wrong secret fail', async () => {
    const captcha = captchaWith(turnstile.secretKey);
    expect(await captcha.verify({ token: 'forged' })).toEqual({ ok: false, errorCodes: ['invalid-input-response'] });
    const other = await widgetToken('0x4AAAAAAAanothersite');
    expect((await captcha.verify({ token: other })).errorCodes).toEqual(['invalid-input-response']);
    const wrongSecret = captchaWith('0x4AAAAAAAnotthesecret');
    expect(await wrongSecret.verify({ token: turnstile.issueToken() })).toEqual({
      ok: false,
      errorCodes: ['invalid-input-secret'],
    });
  });
});
