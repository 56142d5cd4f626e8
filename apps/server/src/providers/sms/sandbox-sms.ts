import { ProviderSendError, toE164, type SendResult, type SmsProvider } from './types.js';

/**
 * Test numbers of the sandbox SMS provider: every other number is delivered. They produce the statuses Twilio's
 * status callbacks report, so the console and tests see failed and undelivered messages (docs/messaging.md).
 */
export const SANDBOX_SMS_NUMBERS = {
  /** Twilio accepts it, the carrier refuses: status failed, error 30006 (landline or unreachable carrier). */
  failed: '+15550100666',
  /** Twilio sends it, the handset never gets it: status undelivered, error 30003 (unreachable destination handset). */
  undelivered: '+15550100777',
  /** Twilio refuses the request itself (21211 invalid 'To' number): the outbox gives up at once. */
  refused: '+15550100999',
} as const;

/** Sandbox: delivery is the outbox row itself (shown at /api/dev/outbox); nothing leaves the machine. */
export function sandboxSms(): SmsProvider {
  let n = 0;
  return {
    name: 'sandbox',
    async send({ to }): Promise<SendResult> {
      const providerId = `SMsandbox${Date.now().toString(36)}${(n++).toString(36)}`;
      const number = toE164(to);
      if (number === SANDBOX_SMS_NUMBERS.refused) {
        throw new ProviderSendError("Twilio 400 (21211): The 'To' number is not a valid phone number.", true);
      }
      if (number === SANDBOX_SMS_NUMBERS.failed) return { providerId, status: 'failed', errorCode: '30006' };
      if (number === SANDBOX_SMS_NUMBERS.undelivered) return { providerId, status: 'undelivered', errorCode: '30003' };
      return { providerId, status: 'delivered' };
    },
  };
}
