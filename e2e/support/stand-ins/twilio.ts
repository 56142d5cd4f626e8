import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Twilio's Programmable Messaging API (api.twilio.com), speaking its wire protocol:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with a form body and HTTP Basic auth (account SID + auth
 * token). A wrong or missing credential answers 401 with Twilio's error JSON (code 20003); a request without To, From
 * or Body answers 400 (21604/21603/21602). An accepted message answers 201 with a Twilio-shaped resource (sid SM…,
 * status queued) and is kept for tests to read; then, like Twilio, the stand-in POSTs the message's status callbacks
 * (`sent`, then `delivered`) to its `StatusCallback` URL as form posts signed with `X-Twilio-Signature`
 * (base64 HMAC-SHA1 of the URL + sorted parameters, keyed by the auth token) — written here from Twilio's documented
 * algorithm, independently of the product's verifier.
 */
export interface TwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  statusCallback: string | null;
  createdAt: Date;
}

export interface StatusCallbackResult {
  sid: string;
  status: string;
  url: string;
  /** The HTTP status our webhook answered (204 when accepted), or 0 when it could not be reached. */
  httpStatus: number;
}

export interface TwilioStandIn {
  /** Give it to the product as TWILIO_API_BASE_URL. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** A sender number for TWILIO_FROM. */
  from: string;
  messages: TwilioMessage[];
  /** Every status callback posted and what the product answered. */
  callbacks: StatusCallbackResult[];
  /** The newest message to a number (E.164, or any spelling with the same digits). */
  latestTo(phone: string): TwilioMessage | undefined;
  /** Waits for a message to a number sent after `since` (default: any). */
  waitForMessage(phone: string, opts?: { since?: Date; timeoutMs?: number }): Promise<TwilioMessage>;
  /** Waits until the product answered the callbacks of a message (both `sent` and `delivered`). */
  waitForCallbacks(sid: string, opts?: { timeoutMs?: number }): Promise<StatusCallbackResult[]>;
  stop(): Promise<void>;
}

/** Twilio's request signature, as its documentation describes it (also the helper libraries' `getExpectedTwilioSignature`). */
export function signTwilioRequest(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf-8')).digest('base64');
}

const digits = (phone: string) => phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

function safeEqual(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startTwilioStandIn(
  opts: {
    accountSid?: string;
    authToken?: string;
    from?: string;
    /** Delay before each status callback (Twilio sends them within seconds). */
    callbackDelayMs?: number;
    /** The statuses to report, in order (default sent, delivered). */
    statuses?: string[];
  } = {},
): Promise<TwilioStandIn> {
  const accountSid = opts.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = opts.authToken ?? randomBytes(16).toString('hex');
  const from = opts.from ?? '+15005550006';
  const statuses = opts.statuses ?? ['sent', 'delivered'];
  const messages: TwilioMessage[] = [];
  const callbacks: StatusCallbackResult[] = [];
  const pending = new Set<Promise<void>>();
  let stopped = false;

  const postCallback = async (m: TwilioMessage, status: string) => {
    if (!m.statusCallback || stopped) return;
    // What Twilio posts for an outbound message's status (its "Message status callback" parameters).
    const params: Record<string, string> = {
      AccountSid: accountSid,
      ApiVersion: '2010-04-01',
      From: m.from,
      MessageSid: m.sid,
      MessageStatus: status,
      SmsSid: m.sid,
      SmsStatus: status,
      To: m.to,
    };
    let httpStatus = 0;
    try {
      const r = await fetch(m.statusCallback, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'x-twilio-signature': signTwilioRequest(authToken, m.statusCallback, params),
          'user-agent': 'TwilioProxy/1.1',
        },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      httpStatus = r.status;
      await r.body?.cancel();
    } catch {
      httpStatus = 0;
    }
    callbacks.push({ sid: m.sid, status, url: m.statusCallback, httpStatus });
  };

  const reply = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  const twilioError = (res: http.ServerResponse, status: number, code: number, message: string) =>
    reply(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
      if (!m || req.method !== 'POST') {
        return twilioError(res, 404, 20404, 'The requested resource was not found');
      }
      const auth = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const [user, pass] = auth ? Buffer.from(auth, 'base64').toString('utf8').split(/:(.*)/s) : [];
      if (!user || !pass || !safeEqual(user, accountSid) || !safeEqual(pass, authToken)) {
        return twilioError(res, 401, 20003, 'Authenticate');
      }
      if (decodeURIComponent(m[1]!) !== accountSid) {
        return twilioError(res, 404, 20404, 'The requested resource was not found');
      }
      if (!/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
        return twilioError(res, 400, 21602, 'Message body is required.');
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To') ?? '';
      const sender = form.get('From') ?? form.get('MessagingServiceSid') ?? '';
      const body = form.get('Body') ?? '';
      if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
      if (!/^\+[1-9]\d{7,14}$/.test(to)) {
        return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      }
      if (!sender) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
      if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
      const message: TwilioMessage = {
        sid: `SM${randomBytes(16).toString('hex')}`,
        to,
        from: sender,
        body,
        statusCallback: form.get('StatusCallback'),
        createdAt: new Date(),
      };
      messages.push(message);
      const now = new Date().toUTCString().replace('GMT', '+0000');
      reply(res, 201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: sender,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(Math.max(1, Math.ceil(body.length / 153))),
        price: null,
        price_unit: 'USD',
        sid: message.sid,
        status: 'queued',
        subresource_uris: {
          media: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}/Media.json`,
        },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      });
      // After answering, as Twilio does: the callbacks arrive on their own, in order.
      const run = (async () => {
        for (const status of statuses) {
          await new Promise((r) => setTimeout(r, opts.callbackDelayMs ?? 50));
          await postCallback(message, status);
        }
      })();
      pending.add(run);
      void run.finally(() => pending.delete(run));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const poll = async <T>(what: string, fn: () => T | undefined, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = fn();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`Twilio stand-in: no ${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const latestTo = (phone: string, since?: Date) =>
    messages.findLast((m) => digits(m.to) === digits(phone) && (!since || m.createdAt >= since));

  return {
    baseUrl,
    accountSid,
    authToken,
    from,
    messages,
    callbacks,
    latestTo: (phone) => latestTo(phone),
    waitForMessage: (phone, o = {}) => poll(`SMS to ${phone}`, () => latestTo(phone, o.since), o.timeoutMs ?? 15_000),
    waitForCallbacks: (sid, o = {}) =>
      poll(
        `status callbacks for ${sid}`,
        () => {
          const seen = callbacks.filter((c) => c.sid === sid);
          return seen.length >= statuses.length ? seen : undefined;
        },
        o.timeoutMs ?? 15_000,
      ),
    stop: async () => {
      stopped = true;
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
