import type { Config } from '../../config.js';
import { sandboxCaptcha } from './sandbox-captcha.js';
import { turnstileCaptcha } from './turnstile-captcha.js';
import type { CaptchaProvider } from './types.js';

export function loadCaptchaProvider(config: Config): CaptchaProvider {
  if (config.sandbox.captcha) return sandboxCaptcha();
  return turnstileCaptcha({
    secretKey: config.TURNSTILE_SECRET_KEY!,
    siteKey: config.TURNSTILE_SITE_KEY ?? null,
    verifyUrl: config.TURNSTILE_VERIFY_URL,
  });
}
