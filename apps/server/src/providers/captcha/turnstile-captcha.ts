import type { CaptchaProvider } from './types.js';

export interface TurnstileOptions {
  secretKey: string;
  siteKey: string | null;
  /** https://challenges.cloudflare.com/turnstile/v0/siteverify unless a test points it elsewhere. */
  verifyUrl: string;
  timeoutMs?: number;
}

/**
 * Cloudflare Turnstile siteverify. Fails closed: no token, an unreachable Cloudflare or a malformed answer all count
 * as a failed check (the rate limits still bound what anyone can do).
 */
export function turnstileCaptcha(opts: TurnstileOptions): CaptchaProvider {
  return {
    name: 'turnstile',
    siteKey: opts.siteKey,
    async verify({ token, remoteIp }) {
      if (!token) return { ok: false, errorCodes: ['missing-input-response'] };
      const body = new URLSearchParams({ secret: opts.secretKey, response: token });
      if (remoteIp) body.set('remoteip', remoteIp);
      try {
        const res = await fetch(opts.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
        const json = (await res.json().catch(() => null)) as { success?: unknown; 'error-codes'?: unknown } | null;
        if (!res.ok || !json) return { ok: false, errorCodes: [`http-${res.status}`] };
        const codes = Array.isArray(json['error-codes']) ? json['error-codes'].map(String) : [];
        return { ok: json.success === true, errorCodes: codes };
      } catch (err) {
        return { ok: false, errorCodes: [`unreachable: ${(err as Error).message}`] };
      }
    },
  };
}
