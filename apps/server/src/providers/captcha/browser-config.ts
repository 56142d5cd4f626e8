import type { Config } from '../../config.js';

/**
 * Where the patient app loads Turnstile's widget script from (TURNSTILE_SCRIPT_URL, Cloudflare's by default), or null
 * when the captcha runs in sandbox mode and the browser loads nothing. The CSP, the script inventory and the tamper
 * check name the same URL.
 */
export function captchaScriptUrl(config: Config): string | null {
  return config.sandbox.captcha ? null : config.TURNSTILE_SCRIPT_URL;
}
