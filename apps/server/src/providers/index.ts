import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { loadCaptchaProvider } from './captcha/load-captcha.js';
import type { CaptchaProvider } from './captcha/types.js';
import { loadEmailProvider } from './email/load-email.js';
import type { EmailProvider } from './email/types.js';
import { loadSmsProvider } from './sms/load-sms.js';
import type { SmsProvider } from './sms/types.js';
import { loadStorage } from './storage/load-storage.js';
import type { DocumentStorage } from './storage/types.js';
import { loadGateway } from './gateway/load-gateway.js';
import type { CardGateway } from './gateway/types.js';

/**
 * Outside services, each behind an interface (types.ts in its folder) with a real and a sandbox implementation,
 * picked here by config. Issues add their provider to this object.
 */
export interface Providers {
  /** Sign-in codes (issue 3): Twilio or sandbox. */
  sms: SmsProvider;
  /** Sign-in links, receipts (issue 3): SMTP or sandbox. */
  email: EmailProvider;
  /** Invisible captcha on /auth (issue 3): Cloudflare Turnstile or sandbox. */
  captcha: CaptchaProvider;
  /** Signed PDFs and uploaded ID files (issue 5). */
  storage: DocumentStorage;
  /** Card payments (issue 6): Elavon Converge or the sandbox gateway. */
  gateway: CardGateway;
}

export async function loadProviders(_opts: { config: Config; db: Db }): Promise<Providers> {
  return {
    sms: loadSmsProvider(_opts.config),
    email: loadEmailProvider(_opts.config),
    captcha: loadCaptchaProvider(_opts.config),
    storage: loadStorage(_opts.config),
    gateway: loadGateway(_opts),
  };
}
