import type { EmailProvider } from './types.js';

/** Sandbox: delivery is the outbox row itself (shown at /api/dev/outbox); nothing leaves the machine. */
export function sandboxEmail(): EmailProvider {
  return {
    name: 'sandbox',
    async send() {
      return { providerId: `sandbox-email-${Date.now().toString(36)}` };
    },
  };
}
