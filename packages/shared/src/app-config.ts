import { z } from 'zod';

/** GET /api/config: what the browser needs to know about this installation (CONTRACTS.md). */
export const appConfigSchema = z.object({
  practice: z.object({
    name: z.string(),
    supportPhone: z.string(),
    supportEmail: z.string(),
    logoUrl: z.string().nullable(),
  }),
  /** Origin of the signing service; window messages are accepted from it only. */
  signOrigin: z.string(),
  gateway: z.object({
    checkoutJsUrl: z.string(),
    threeDSSdkUrl: z.string(),
    threeDSBaseUrl: z.string(),
  }),
  /** Cloudflare Turnstile site key; null when the captcha runs in sandbox mode. */
  captchaSiteKey: z.string().nullable(),
  /** Where the Turnstile widget script is loaded from (TURNSTILE_SCRIPT_URL); null when the captcha runs in sandbox mode. */
  captchaScriptUrl: z.string().nullable(),
  sandbox: z.boolean(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** Names of the web-vitals metrics POST /api/vitals accepts (body: shared vitalsBodySchema). */
export const VITAL_NAMES = ['CLS', 'FCP', 'INP', 'LCP', 'TTFB'] as const;
