import type { Config } from '../../config.js';
import { sandboxEmail } from './sandbox-email.js';
import { smtpEmail } from './smtp-email.js';
import type { EmailProvider } from './types.js';

export function loadEmailProvider(config: Config): EmailProvider {
  if (config.sandbox.email) return sandboxEmail();
  return smtpEmail({
    host: config.SMTP_HOST!,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    user: config.SMTP_USER,
    password: config.SMTP_PASSWORD,
    from: config.SMTP_FROM,
  });
}
