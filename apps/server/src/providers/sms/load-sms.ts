import type { Config } from '../../config.js';
import { sandboxSms } from './sandbox-sms.js';
import { twilioSms } from './twilio-sms.js';
import type { SmsProvider } from './types.js';

export function loadSmsProvider(config: Config): SmsProvider {
  if (config.sandbox.sms) return sandboxSms();
  return twilioSms({
    accountSid: config.TWILIO_ACCOUNT_SID!,
    authToken: config.TWILIO_AUTH_TOKEN!,
    from: config.TWILIO_FROM!,
    baseUrl: config.TWILIO_API_BASE_URL,
    statusCallback: `${config.publicUrl}/api/webhooks/twilio/status`,
  });
}
