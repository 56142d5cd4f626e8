import type { CaptchaProvider } from './types.js';

/** Sandbox: every check passes (there is no widget). The sign-in rate limits apply all the same. */
export function sandboxCaptcha(): CaptchaProvider {
  return {
    name: 'sandbox',
    siteKey: null,
    async verify() {
      return { ok: true, errorCodes: [] };
    },
  };
}
