import { ProviderSendError, toE164, type SmsProvider } from './types.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  from: string;
  /** https://api.twilio.com unless a test points it elsewhere. */
  baseUrl: string;
  timeoutMs?: number;
  /** Where Twilio POSTs delivery statuses (PUBLIC_URL/api/webhooks/twilio/status); omitted when unset. */
  statusCallback?: string;
}

/** Twilio Programmable Messaging: POST /2010-04-01/Accounts/{SID}/Messages.json, form body, HTTP Basic auth. */
export function twilioSms(opts: TwilioOptions): SmsProvider {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send({ to, body }) {
      const number = toE164(to);
      if (!number) throw new ProviderSendError(`not a valid phone number: ${to.replace(/\d(?=\d{4})/g, '*')}`, true);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: auth,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({
            To: number,
            From: opts.from,
            Body: body,
            ...(opts.statusCallback ? { StatusCallback: opts.statusCallback } : {}),
          }).toString(),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
        });
      } catch (err) {
        throw new ProviderSendError(`Twilio unreachable: ${(err as Error).message}`);
      }
      const json = (await res.json().catch(() => ({}))) as {
        sid?: string;
        code?: number;
        message?: string;
        status?: string;
      };
      if (res.ok && json.sid) return { providerId: json.sid, status: json.status === 'sent' ? 'sent' : 'queued' };
      const detail = `Twilio ${res.status}${json.code ? ` (${json.code})` : ''}: ${json.message ?? res.statusText}`;
      // 4xx other than 429 are refusals of this request (bad number, bad credentials): retrying will not help.
      throw new ProviderSendError(detail, res.status >= 400 && res.status < 500 && res.status !== 429);
    },
  };
}
