import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint signing secret: `whsec_` + 32 random bytes (base64url). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * `Paylink-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>` (Stripe's scheme).
 * The receiver recomputes it over the raw body it received and compares in constant time (docs/money.md).
 */
export function signWebhook(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
