import type { SmsProvider } from './types.js';

/** Sandbox: delivery is the outbox row itself (shown at /api/dev/outbox); nothing leaves the machine. */
export function sandboxSms(): SmsProvider {
  return {
    name: 'sandbox',
    async send() {
      return { providerId: `sandbox-sms-${Date.now().toString(36)}` };
    },
  };
}
