export interface CaptchaResult {
  ok: boolean;
  /** Provider error codes (e.g. Turnstile's invalid-input-response), for the audit log. */
  errorCodes: string[];
}

/** Server-side check of the token the invisible widget produced in the browser. */
export interface CaptchaProvider {
  readonly name: 'turnstile' | 'sandbox';
  /** The site key the browser widget needs; null when there is no widget (sandbox). */
  readonly siteKey: string | null;
  verify(input: { token: string | undefined; remoteIp?: string }): Promise<CaptchaResult>;
}
