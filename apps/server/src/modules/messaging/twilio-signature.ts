import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's webhook signature: base64(HMAC-SHA1(auth token, the full URL Twilio called + every POST parameter's name
 * and value, sorted by name, with no separators)). Hand-written (12 lines) rather than the `twilio` package, which
 * would pull an HTTP client and 100+ files for one function (docs/decisions/0140).
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const byName = new Map<string, string[]>();
  for (const [k, v] of params) byName.set(k, [...(byName.get(k) ?? []), v]);
  let data = url;
  for (const name of [...byName.keys()].sort()) {
    for (const v of byName.get(name)!.sort()) data += name + v;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Constant-time comparison of the X-Twilio-Signature header with the expected signature. */
export function isValidTwilioSignature(o: {
  authToken: string;
  url: string;
  params: URLSearchParams;
  header: string | undefined;
}): boolean {
  if (!o.header) return false;
  const expected = Buffer.from(twilioSignature(o.authToken, o.url, o.params));
  const given = Buffer.from(o.header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
