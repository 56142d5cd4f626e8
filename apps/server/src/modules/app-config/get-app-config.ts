import type { AppConfig } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { captchaScriptUrl } from '../../providers/captcha/browser-config.js';
import { gatewayBrowserConfig } from '../../providers/gateway/browser-config.js';
import { loadPracticeInfo } from '../../messages/index.js';

/** What the browser needs about this installation: branding, the origins it talks to, the captcha site key. */
export async function getAppConfig(ctx: AppContext): Promise<AppConfig> {
  const { config } = ctx;
  const practice = await loadPracticeInfo(ctx.db, {
    name: config.PRACTICE_NAME,
    supportPhone: config.PRACTICE_PHONE,
    supportEmail: config.PRACTICE_EMAIL,
    logoUrl: config.PRACTICE_LOGO_URL ?? null,
  });
  return {
    practice: {
      name: practice.name,
      supportPhone: practice.supportPhone,
      supportEmail: practice.supportEmail,
      logoUrl: practice.logoUrl,
    },
    signOrigin: config.signOrigin,
    gateway: gatewayBrowserConfig(config),
    // A site key without the secret would render a widget whose answer nobody checks.
    captchaSiteKey: config.sandbox.captcha ? null : (config.TURNSTILE_SITE_KEY ?? null),
    captchaScriptUrl: captchaScriptUrl(config),
    sandbox: config.mode === 'sandbox',
  };
}
