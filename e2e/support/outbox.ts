import { eventually } from './wait.js';
import type { RunningProduct } from './server.js';

/** One message of the sandbox outbox (`GET /api/dev/outbox?to=`, newest first). */
export interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  createdAt: string;
  /** What the (sandbox) provider reported: queued/sent/delivered/undelivered/failed (SMS), accepted/refused (e-mail). */
  deliveryStatus?: string | null;
}

export async function readOutbox(product: RunningProduct, to: string): Promise<OutboxMessage[]> {
  if (product.inbox) return product.inbox(to);
  const r = await fetch(`${product.baseUrl}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  if (!r.ok) throw new Error(`GET /api/dev/outbox answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as OutboxMessage[];
}

/**
 * Waits for a message to `to` on `channel` that is not in `seen` (ids of messages already there) and matches `match`.
 * Returns the newest such message.
 */
export async function waitForMessage(
  product: RunningProduct,
  opts: {
    to: string;
    channel: 'sms' | 'email';
    seen?: Iterable<string>;
    match?: RegExp | ((m: OutboxMessage) => boolean);
    timeout?: number;
  },
): Promise<OutboxMessage> {
  const seen = new Set(opts.seen ?? []);
  const matches = (m: OutboxMessage) =>
    !opts.match ? true : opts.match instanceof RegExp ? opts.match.test(messageText(m)) : opts.match(m);
  return eventually(
    async () =>
      (await readOutbox(product, opts.to)).find((m) => m.channel === opts.channel && !seen.has(m.id) && matches(m)),
    { timeout: opts.timeout ?? 20_000, message: `a new ${opts.channel} to ${opts.to} in the sandbox outbox` },
  );
}

/** Ids already in the outbox for `to` (so a later wait only sees new messages). */
export async function outboxIds(product: RunningProduct, to: string): Promise<string[]> {
  return (await readOutbox(product, to)).map((m) => m.id);
}

/** Subject + text + html, for content checks. */
export function messageText(m: OutboxMessage): string {
  return [m.subject ?? '', m.text, m.html ?? ''].join('\n');
}

/** The 6-digit one-time code in an SMS. */
export function smsCode(m: OutboxMessage): string {
  const code = /\b(\d{6})\b/.exec(m.text)?.[1];
  if (!code) throw new Error(`No 6-digit code in the SMS: ${JSON.stringify(m.text)}`);
  return code;
}

/** The sign-in link in an e-mail (`<PUBLIC_URL>/auth?id=…&mode=signIn&oobCode=…`). */
export function signInLink(m: OutboxMessage): string {
  const link = /(https?:\/\/[^\s"'<>]+\/auth\?[^\s"'<>]*oobCode=[^\s"'<>]+)/.exec(m.text)?.[1];
  if (!link) throw new Error(`No sign-in link in the e-mail text: ${JSON.stringify(m.text)}`);
  return link.replace(/&amp;/g, '&');
}
