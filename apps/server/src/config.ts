import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseOptionalDuration, parseQuietHours } from './lib/durations.js';
import { parseTrustProxy } from './lib/trust-proxy.js';
import { parseAllowedRanges, type IpRange } from './lib/ip-ranges.js';

/**
 * Every setting the server reads, validated once at boot. A bad or missing value stops the process with a message
 * naming the variable. With no provider credentials, every provider runs in sandbox mode (docs/configuration.md).
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
/** A PDF file that must exist when the server starts (a typo fails at boot, not at a patient's contract step). */
const pdfFile = optional.refine((v) => {
  if (v === undefined) return true;
  try {
    const fd = fs.openSync(v, 'r');
    const head = Buffer.alloc(5);
    fs.readSync(fd, head, 0, 5, 0);
    fs.closeSync(fd);
    return head.toString('latin1') === '%PDF-';
  } catch {
    return false;
  }
}, 'must be the path of a readable PDF file');
const origin = z.url().transform((v) => v.replace(/\/+$/, ''));
/** A duration like 30s, 24h or 3d, or `off` (null). */
const offOrDuration = (def: string) =>
  z
    .string()
    .default(def)
    .transform((v, c) => {
      const s = parseOptionalDuration(v);
      if (s === undefined) {
        c.addIssue({ code: 'custom', message: 'must be `off` or a duration like 30s, 90m, 24h or 3d' });
        return z.NEVER;
      }
      return s;
    });

const SANDBOX_API_KEY = 'paylink-sandbox-api-key';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Interface to listen on. Default: 127.0.0.1 in sandbox mode (sandbox codes must not leave the machine), else 0.0.0.0. */
  HOST: optional,
  PORT: int(8080, 0, 65535),
  /** The app's public origin (links in SMS and e-mail point here). Default http://localhost:PORT. */
  PUBLIC_URL: origin.optional(),
  DATABASE_URL: optional,
  /**
   * Connections to the PostgreSQL server per process; each process opens one more for the audit batch's insert. 10 + 1
   * lets eight processes share PostgreSQL's default 100 connections with room left for psql and backups; the patient
   * reads' audit rows commit in batches (decision 0179), so 20 was no faster than 10 (docs/scaling.md, decision 0227).
   */
  DATABASE_POOL_MAX: int(10, 1, 500),
  PAYLINK_DATA_DIR: z.string().default('./data'),
  /** 'sandbox' allows unconfigured providers (sandbox stand-ins); 'production' demands real credentials. */
  PAYLINK_MODE: z.enum(['sandbox', 'production']).optional(),
  PAYLINK_API_KEY: optional,
  PAYLINK_SESSION_SECRET: optional,
  /**
   * The key that hashes sign-in codes and encrypts staff TOTP secrets (issue 26): kept out of the database so a dump
   * opens neither. Required in production; in sandbox mode a per-database key is used when it is unset. Rotation:
   * put the old value in PAYLINK_SECRETS_KEY_PREVIOUS and a new one here; the boot re-seals (docs/security.md).
   */
  PAYLINK_SECRETS_KEY: optional,
  PAYLINK_SECRETS_KEY_PREVIOUS: optional,
  PAYLINK_ADMIN_EMAIL: optional,
  PAYLINK_ADMIN_PASSWORD: optional,
  PAYLINK_DEMO_LINKS: z.enum(['true', 'false']).optional(),
  /** How many proxies stand in front (a hop count) or their addresses; never a bare `true` (issue 26). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, c) => {
      const r = parseTrustProxy(v);
      if (typeof r === 'string') {
        c.addIssue({ code: 'custom', message: r });
        return z.NEVER;
      }
      return r;
    }),

  PRACTICE_NAME: z.string().default('Bella Vista Plastic Surgery'),
  PRACTICE_PHONE: z.string().default('(555) 010-0123'),
  PRACTICE_EMAIL: z.string().default('billing@bellavista.example'),
  PRACTICE_SENDER_NAME: z.string().optional(),
  PRACTICE_LOGO_URL: optional,

  LINK_DEFAULT_EXPIRY_DAYS: int(14, 1, 365),
  SESSION_TTL_MINUTES: int(60, 1, 24 * 60),
  OTP_TTL_MINUTES: int(10, 1, 60),
  OTP_MAX_ATTEMPTS: int(5, 1, 20),
  OTP_RESEND_COOLDOWN_SECONDS: int(30, 0, 3600),
  OTP_MAX_SENDS_PER_HOUR: int(5, 1, 100),
  EMAIL_LINK_TTL_MINUTES: int(15, 1, 24 * 60),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024, 50 * 1024 * 1024),
  UPLOAD_MAX_MB: int(10, 1, 50),

  // SMS (Twilio)
  TWILIO_ACCOUNT_SID: optional,
  TWILIO_AUTH_TOKEN: optional,
  TWILIO_FROM: optional,
  /** Twilio's API origin; tests point it at a local stand-in. */
  TWILIO_API_BASE_URL: origin.default('https://api.twilio.com'),
  // E-mail (SMTP)
  SMTP_HOST: optional,
  SMTP_PORT: int(587, 1, 65535),
  SMTP_SECURE: bool,
  SMTP_USER: optional,
  SMTP_PASSWORD: optional,
  SMTP_FROM: z.string().default('no-reply@paylink.example'),
  // Captcha (Cloudflare Turnstile)
  TURNSTILE_SITE_KEY: optional,
  TURNSTILE_SECRET_KEY: optional,
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /**
   * Where the patient app loads Turnstile's browser widget from (the CSP allows its origin; the tamper check watches
   * it). Cloudflare's own URL unless a stand-in replaces it, as the production rehearsal does (decision 0189).
   */
  TURNSTILE_SCRIPT_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://challenges.cloudflare.com/turnstile/v0/api.js'),
  // Outbox worker (SMS and e-mail delivery with retries)
  OUTBOX_POLL_INTERVAL_MS: int(1000, 50, 60_000),
  OUTBOX_MAX_ATTEMPTS: int(8, 1, 50),
  // Card gateway (Elavon Converge)
  CONVERGE_MERCHANT_ID: optional,
  CONVERGE_USER_ID: optional,
  CONVERGE_PIN: optional,
  CONVERGE_ENV: z.enum(['demo', 'production']).default('demo'),
  /** Overrides of the per-CONVERGE_ENV defaults (docs/payments.md): API base, Checkout.js, 3DS2 SDK and its base. */
  CONVERGE_API_BASE: origin.optional(),
  CONVERGE_CHECKOUT_JS_URL: z.url().optional(),
  CONVERGE_3DS_SDK_URL: z.url().optional(),
  CONVERGE_3DS_BASE_URL: origin.optional(),
  /** Extra origins the 3-D Secure challenge may frame (comma-separated), e.g. issuers' ACS pages. */
  CONVERGE_3DS_FRAME_ORIGINS: optional,
  /** Card-testing brake: new gateway session tokens per link per hour (docs/decisions/0056). */
  PAYMENT_MAX_ATTEMPTS_PER_HOUR: int(20, 1, 1000),
  /** IANA time zone for dates in receipts (default: the server's). */
  PRACTICE_TIME_ZONE: z
    .string()
    .optional()
    .refine((v) => {
      if (!v) return true;
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: v });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as America/Chicago'),
  // Sandbox gateway and signing service: their own origins (second and third ports in sandbox mode)
  GATEWAY_PORT: int(8082, 0, 65535),
  GATEWAY_ORIGIN: origin.optional(),
  SIGN_PORT: int(8081, 0, 65535),
  SIGN_ORIGIN: origin.optional(),
  // Document storage: local disk under the data dir, or S3-compatible
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optional,
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  // Per-IP rate limits (issue 11): requests per minute and address, by group; 0 turns a group off (docs/security.md).
  RATE_LIMIT_DEFAULT_PER_MINUTE: int(1200, 0, 1_000_000),
  RATE_LIMIT_AUTH_PER_MINUTE: int(30, 0, 1_000_000),
  RATE_LIMIT_LOOKUP_PER_MINUTE: int(30, 0, 1_000_000),
  RATE_LIMIT_VITALS_PER_MINUTE: int(60, 0, 1_000_000),
  RATE_LIMIT_STAFF_LOGIN_PER_MINUTE: int(20, 0, 1_000_000),
  RATE_LIMIT_CSP_REPORT_PER_MINUTE: int(30, 0, 1_000_000),
  /**
   * Rate-limit counters in Redis (e.g. redis://127.0.0.1:6379). Empty: in PostgreSQL with DATABASE_URL (shared by every
   * process on the database, decision 0194), in memory with the embedded database (one process per data dir).
   */
  REDIS_URL: optional,
  /**
   * Address ranges webhooks may be sent to although they are not public (issue 26), comma-separated CIDR: a receiver
   * on the practice's own network. Empty: public addresses only (and loopback in sandbox mode).
   */
  WEBHOOK_ALLOW_PRIVATE: z
    .string()
    .optional()
    .transform((v, c): IpRange[] => {
      const r = parseAllowedRanges(v);
      if (typeof r === 'string') {
        c.addIssue({ code: 'custom', message: r });
        return z.NEVER;
      }
      return r;
    }),
  RATE_LIMIT_REDIS_PREFIX: z.string().default('paylink-rl:'),
  /** The web-vitals table keeps at most this many rows (the oldest go first). */
  VITALS_MAX_ROWS: int(100_000, 100, 100_000_000),
  /** The practice's contract PDF for the contract step (default: the bundled sample, assets/sample-contract.pdf). */
  CONTRACT_PDF_PATH: pdfFile,
  /**
   * The Spanish contract (issue 16). Unset: Spanish readers get the English CONTRACT_PDF_PATH with a note in Spanish, or
   * the bundled Spanish sample when no contract is configured (docs/decisions/0165).
   */
  CONTRACT_PDF_PATH_ES: pdfFile,
  /**
   * The most pages a contract may have (issue 26): every signed copy is built from it and every reader's phone lays it
   * out, so a 100,000-page file is refused at upload (and at start for CONTRACT_PDF_PATH).
   */
  CONTRACT_MAX_PAGES: int(100, 1, 2000),
  /** Where the built patient app is (default apps/web/dist): the server serves it and inventories its scripts. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** How often the payment page tamper check runs (PCI DSS 11.6.1: at least weekly); `off` disables the schedule. */
  TAMPER_CHECK_INTERVAL: offOrDuration('24h'),
  // Messaging (issue 14): reminder plan defaults (the console's practice settings override them), durations like
  // 30s, 90m, 24h, 3d; `off` disables.
  REMINDER_UNOPENED_AFTER: offOrDuration('24h'),
  REMINDER_STALLED_AFTER: offOrDuration('48h'),
  REMINDER_BEFORE_EXPIRY: z
    .string()
    .default('72h,24h')
    .transform((v, c) => {
      if (v.trim().toLowerCase() === 'off' || v.trim() === '') return [];
      const out: number[] = [];
      for (const part of v.split(',')) {
        const s = parseOptionalDuration(part);
        if (s === undefined || s === null) {
          c.addIssue({ code: 'custom', message: 'must be `off` or durations like 72h,24h' });
          return z.NEVER;
        }
        out.push(s);
      }
      return [...new Set(out)].sort((a, b) => b - a);
    }),
  REMINDER_QUIET_HOURS: z
    .string()
    .default('21-8')
    .transform((v, c) => {
      const q = parseQuietHours(v);
      if (q === undefined) {
        c.addIssue({ code: 'custom', message: 'must be `off` or local hours like 21-8 (no SMS from 21:00 to 8:00)' });
        return z.NEVER;
      }
      return q;
    }),
  REMINDER_MIN_GAP: offOrDuration('24h'),
  /** How often each process looks for due reminders and staff notifications. */
  REMINDER_POLL_INTERVAL: offOrDuration('30s').refine((v) => v !== null, 'must be a duration like 30s'),
  /** How often each process runs the payment-plan scheduler (notices and instalment charges); off = never. */
  PLAN_SCHEDULER_INTERVAL: offOrDuration('5m'),
  /** Instalments a scheduler pass claims at a time (it claims batch after batch until nothing is due). */
  PLAN_SCHEDULER_BATCH: int(50, 1, 1000),
  /** Also notified when a link is paid or a payment needs attention (besides the creating coordinator). */
  PRACTICE_NOTIFY_EMAIL: optional,
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** The interface the servers listen on (see HOST). */
  HOST: string;
  mode: 'sandbox' | 'production';
  publicUrl: string;
  gatewayOrigin: string;
  signOrigin: string;
  dataDir: string;
  apiKey: string;
  senderName: string;
  sandbox: { sms: boolean; email: boolean; captcha: boolean; gateway: boolean };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`);
  }
  const e = parsed.data;
  const sandbox = {
    sms: !(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM),
    email: !e.SMTP_HOST,
    captcha: !e.TURNSTILE_SECRET_KEY,
    gateway: !(e.CONVERGE_MERCHANT_ID && e.CONVERGE_USER_ID && e.CONVERGE_PIN),
  };
  const mode = e.PAYLINK_MODE ?? (Object.values(sandbox).every(Boolean) ? 'sandbox' : 'production');
  const problems: string[] = [];
  if (mode === 'production') {
    if (sandbox.sms)
      problems.push('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are required in production mode');
    if (sandbox.email) problems.push('SMTP_HOST is required in production mode');
    if (sandbox.captcha) problems.push('TURNSTILE_SECRET_KEY is required in production mode');
    if (sandbox.gateway)
      problems.push('CONVERGE_MERCHANT_ID, CONVERGE_USER_ID and CONVERGE_PIN are required in production mode');
    if (!e.PAYLINK_API_KEY) problems.push('PAYLINK_API_KEY is required in production mode');
    if (!e.PAYLINK_SESSION_SECRET) problems.push('PAYLINK_SESSION_SECRET is required in production mode');
    if (!e.PAYLINK_SECRETS_KEY) {
      problems.push('PAYLINK_SECRETS_KEY is required in production mode (openssl rand -base64 48)');
    }
    if (!e.SIGN_ORIGIN) problems.push('SIGN_ORIGIN is required in production mode');
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL is required in production mode');
  }
  if (e.TURNSTILE_SECRET_KEY && !e.TURNSTILE_SITE_KEY) {
    // Without it the browser renders no widget and sends no token: every sign-in would fail the check.
    problems.push('TURNSTILE_SITE_KEY is required with TURNSTILE_SECRET_KEY (the browser widget needs it)');
  }
  for (const k of ['PAYLINK_SECRETS_KEY', 'PAYLINK_SECRETS_KEY_PREVIOUS'] as const) {
    if (e[k] && e[k].length < 32) problems.push(`${k} must be at least 32 characters`);
  }
  if (e.PAYLINK_SECRETS_KEY_PREVIOUS && !e.PAYLINK_SECRETS_KEY) {
    problems.push('PAYLINK_SECRETS_KEY_PREVIOUS needs PAYLINK_SECRETS_KEY (the new key)');
  }
  if (e.PAYLINK_SESSION_SECRET && e.PAYLINK_SESSION_SECRET.length < 32) {
    problems.push('PAYLINK_SESSION_SECRET must be at least 32 characters');
  }
  if (e.STORAGE_DRIVER === 's3' && !(e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when STORAGE_DRIVER=s3');
  }
  if (problems.length) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}\nSee .env.example.`);
  }
  const host = 'localhost';
  return {
    ...e,
    HOST: e.HOST ?? (mode === 'sandbox' ? '127.0.0.1' : '0.0.0.0'),
    mode,
    sandbox,
    publicUrl: e.PUBLIC_URL ?? `http://${host}:${e.PORT}`,
    gatewayOrigin: e.GATEWAY_ORIGIN ?? `http://${host}:${e.GATEWAY_PORT}`,
    signOrigin: e.SIGN_ORIGIN ?? `http://${host}:${e.SIGN_PORT}`,
    dataDir: path.resolve(e.PAYLINK_DATA_DIR),
    apiKey: e.PAYLINK_API_KEY ?? SANDBOX_API_KEY,
    senderName: e.PRACTICE_SENDER_NAME ?? e.PRACTICE_NAME,
  };
}
