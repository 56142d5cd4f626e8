import { ProviderSendError } from '../sms/types.js';
import type { EmailProvider } from './types.js';

/** Sandbox: delivery is the outbox row itself (shown at /api/dev/outbox); nothing leaves the machine. */
export function sandboxEmail(): EmailProvider {
  return {
    name: 'sandbox',
    async send({ to }) {
      // Test address: the relay refuses any mailbox named "refused" (docs/messaging.md).
      if (/^refused@/i.test(to)) throw new ProviderSendError('SMTP: 550 5.1.1 mailbox unavailable', true);
      return { providerId: `sandbox-email-${Date.now().toString(36)}`, status: 'accepted' };
    },
  };
}
