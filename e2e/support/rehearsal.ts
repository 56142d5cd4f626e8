import { randomBytes } from 'node:crypto';
import { freePort } from '../../apps/server/test/support/ports.js';
import { setAdminToken } from './admin.js';
import type { OutboxMessage } from './outbox.js';
import { startProduct, type RunningProduct } from './server.js';
import { enrolStaff, type StaffSession } from './staff-session.js';
import { startGatewayStandIn, type GatewayStandIn } from './stand-ins/gateway.js';
import { startS3StandIn, type S3StandIn } from './stand-ins/s3.js';
import { startSmtpStandIn, type ReceivedMail, type SmtpStandIn } from './stand-ins/smtp.js';
import { startTurnstileStandIn, type TurnstileStandIn } from './stand-ins/turnstile.js';
import { startTwilioStandIn, type TwilioMessage, type TwilioStandIn } from './stand-ins/twilio.js';

/**
 * The production rehearsal (issue 25, decision 0189): the product in PAYLINK_MODE=production with every real adapter —
 * Twilio, SMTP, Turnstile, Converge, S3 — pointed at a local stand-in that speaks the provider's wire protocol.
 *
 *   const r = await startRehearsal();
 *   const product = await startProduct(r.env);        // e2e/support/server.ts: the compiled server, as it ships
 *   const admin = await r.signInStaff(product);        // two-factor enrolment + a bearer token; admin() helpers work
 *   …
 *   const sms = await r.sms.waitFor(phone, { since });  // what Twilio was asked to send (smsCode(sms) reads the code)
 *   const mail = await r.mail.waitFor(email, { since });
 *   await product.stop(); await r.stop();
 *
 * The sandbox outbox (/api/dev/outbox) is off in production mode: SMS and e-mail are read from the stand-ins, shaped
 * like outbox messages so the suite's readers (smsCode, signInLink, messageText) work on them.
 */
export interface Rehearsal {
  /** startProduct(env): production mode, every adapter at a stand-in, its own ports and secrets. */
  env: Record<string, string>;
  publicUrl: string;
  apiKey: string;
  /** The first admin (PAYLINK_ADMIN_EMAIL / PAYLINK_ADMIN_PASSWORD); two-factor is not set up until signInStaff. */
  admin: { email: string; password: string };
  sms: MessageReader;
  mail: MessageReader & { raw(address: string): ReceivedMail | undefined };
  /**
   * Signs a staff member in as a person would the first time in production (console sign-in, two-factor enrolment,
   * then a CLI token); by default the configured admin. The token becomes the one the suite's admin() helpers send.
   */
  signInStaff(product: RunningProduct, creds?: { email: string; password: string }): Promise<StaffSession>;
  /**
   * Another staff member created by the admin through the API (POST /api/admin/staff), then enrolled like the admin.
   * For the console journey: a coordinator who signs in with `password` and `await session.nextCode()`.
   */
  addStaff(
    product: RunningProduct,
    admin: StaffSession,
    who?: { role?: 'admin' | 'coordinator' | 'billing'; email?: string; name?: string },
  ): Promise<StaffSession>;
  stand: {
    twilio: TwilioStandIn;
    smtp: SmtpStandIn;
    turnstile: TurnstileStandIn;
    gateway: GatewayStandIn;
    s3: S3StandIn | null;
  };
  stop(): Promise<void>;
}

export interface MessageReader {
  /** The newest message to a phone number or an address, as an outbox message (id, channel, to, subject, text, html). */
  latest(to: string): OutboxMessage | undefined;
  /** Waits for a message to `to` that arrived at or after `since` (default: any). */
  waitFor(to: string, opts?: { since?: Date; timeoutMs?: number }): Promise<OutboxMessage>;
}

const fromSms = (m: TwilioMessage): OutboxMessage => ({
  id: m.sid,
  channel: 'sms',
  to: m.to,
  subject: null,
  text: m.body,
  html: null,
  createdAt: m.createdAt.toISOString(),
});

const fromMail = (m: ReceivedMail, i: number): OutboxMessage => ({
  id: `mail-${i}`,
  channel: 'email',
  to: m.to.join(', '),
  subject: m.subject,
  text: m.text,
  html: m.html,
  createdAt: m.receivedAt.toISOString(),
});

export async function startRehearsal(
  opts: {
    /** 's3' (default): documents in the S3 stand-in; 'local': the data dir, as a practice without S3 runs. */
    storage?: 's3' | 'local';
    logLevel?: string;
  } = {},
): Promise<Rehearsal> {
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
  };
  try {
    const [port, signPort] = [await freePort(), await freePort()];
    const publicUrl = `http://localhost:${port}`;
    const twilio = await startTwilioStandIn();
    started.push(twilio);
    const smtp = await startSmtpStandIn();
    started.push(smtp);
    const turnstile = await startTurnstileStandIn();
    started.push(turnstile);
    const gateway = await startGatewayStandIn({ publicUrl, logLevel: opts.logLevel });
    started.push(gateway);
    const s3 = opts.storage === 'local' ? null : await startS3StandIn();
    if (s3) started.push(s3);

    // The patient app carries its API key from the build (VITE_API_KEY, default the sandbox key; docs/web-app.md): the
    // server must be given the key of the build it serves, as a practice's is.
    const apiKey = process.env.VITE_API_KEY || 'paylink-sandbox-api-key';
    const admin = { email: 'owner@rehearsal.example', password: `Rehearsal-${randomBytes(9).toString('base64url')}` };
    const env: Record<string, string> = {
      PAYLINK_MODE: 'production',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      SIGN_PORT: String(signPort),
      SIGN_ORIGIN: `http://127.0.0.1:${signPort}`,
      GATEWAY_ORIGIN: gateway.origin,
      PAYLINK_API_KEY: apiKey,
      PAYLINK_SESSION_SECRET: randomBytes(32).toString('base64url'),
      PAYLINK_SECRETS_KEY: randomBytes(36).toString('base64'),
      PAYLINK_ADMIN_EMAIL: admin.email,
      PAYLINK_ADMIN_PASSWORD: admin.password,
      PAYLINK_DEMO_LINKS: 'false',
      PRACTICE_NAME: 'Bella Vista Plastic Surgery',
      PRACTICE_EMAIL: 'billing@bellavista.example',
      PRACTICE_NOTIFY_EMAIL: 'front-desk@bellavista.example',
      // Twilio
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: twilio.from,
      TWILIO_API_BASE_URL: twilio.baseUrl,
      // SMTP with AUTH, no TLS (loopback)
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_SECURE: 'false',
      SMTP_USER: smtp.user,
      SMTP_PASSWORD: smtp.password,
      SMTP_FROM: 'no-reply@bellavista.example',
      // Turnstile: the widget script and siteverify
      TURNSTILE_SITE_KEY: turnstile.siteKey,
      TURNSTILE_SECRET_KEY: turnstile.secretKey,
      TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
      TURNSTILE_SCRIPT_URL: turnstile.scriptUrl,
      // Converge (and Elavon 3-D Secure) at the gateway stand-in
      ...gateway.env,
      // Documents
      ...(s3
        ? {
            STORAGE_DRIVER: 's3',
            S3_ENDPOINT: s3.endpoint,
            S3_REGION: s3.region,
            S3_BUCKET: s3.bucket,
            S3_ACCESS_KEY_ID: s3.accessKeyId,
            S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
          }
        : { STORAGE_DRIVER: 'local' }),
    };

    const signInStaff = async (product: RunningProduct, creds = admin) => {
      const session = await enrolStaff(product.baseUrl, creds);
      if (creds.email === admin.email) setAdminToken(product, session.token);
      return session;
    };

    return {
      env,
      publicUrl,
      apiKey,
      admin,
      sms: {
        latest: (to) => {
          const m = twilio.latestTo(to);
          return m && fromSms(m);
        },
        waitFor: async (to, o) => fromSms(await twilio.waitForMessage(to, o)),
      },
      mail: {
        latest: (to) => {
          const m = smtp.latestTo(to);
          return m && fromMail(m, smtp.mails.indexOf(m));
        },
        waitFor: async (to, o) => {
          const m = await smtp.waitForMail(to, o);
          return fromMail(m, smtp.mails.indexOf(m));
        },
        raw: (to) => smtp.latestTo(to),
      },
      signInStaff,
      addStaff: async (product, by, who = {}) => {
        const creds = {
          email: who.email ?? `${who.role ?? 'coordinator'}-${randomBytes(3).toString('hex')}@rehearsal.example`,
          password: `Rehearsal-${randomBytes(9).toString('base64url')}`,
        };
        const r = await fetch(`${product.baseUrl}/api/admin/staff`, {
          method: 'POST',
          headers: { authorization: `Bearer ${by.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            ...creds,
            name: who.name ?? 'Rehearsal Coordinator',
            role: who.role ?? 'coordinator',
          }),
        });
        if (r.status !== 201) throw new Error(`POST /api/admin/staff answered ${r.status}: ${await r.text()}`);
        return enrolStaff(product.baseUrl, creds);
      },
      stand: { twilio, smtp, turnstile, gateway, s3 },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * The product of a rehearsal file (the `rehearsal` product kind of e2e/support/test.ts): startRehearsal(), the product
 * started on its env (plus `env`), the configured admin signed in (so the admin helpers work), and its SMS and e-mail
 * read from the stand-ins through `inbox`. stop() stops the stand-ins too.
 */
export async function startRehearsalProduct(
  env: Record<string, string> = {},
): Promise<RunningProduct & { rehearsal: Rehearsal; owner: StaffSession }> {
  const rehearsal = await startRehearsal();
  let product: RunningProduct;
  try {
    product = await startProduct({ ...rehearsal.env, ...env });
  } catch (err) {
    await rehearsal.stop();
    throw err;
  }
  const digits = (s: string) => s.replace(/\D/g, '').slice(-10);
  const inbox = async (to: string): Promise<OutboxMessage[]> => {
    const sms = rehearsal.stand.twilio.messages.filter(
      (m) => to.includes('@') === false && digits(m.to) === digits(to),
    );
    const mails = rehearsal.stand.smtp.mails
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.envelopeTo.includes(to.toLowerCase()) || m.to.includes(to.toLowerCase()));
    return [...sms.map(fromSms), ...mails.map(({ m, i }) => fromMail(m, i))].sort((a, b) =>
      b.createdAt.localeCompare(a.createdAt),
    );
  };
  const owner = await rehearsal.signInStaff(product).catch(async (err: unknown) => {
    await product.stop();
    await rehearsal.stop();
    throw err;
  });
  const stopProduct = product.stop;
  return Object.assign(product, {
    rehearsal,
    owner,
    inbox,
    stop: async () => {
      await stopProduct();
      await rehearsal.stop();
    },
  });
}
