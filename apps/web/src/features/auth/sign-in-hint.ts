/**
 * The sign-in method the server wrote into this page's HTML (`<meta name="paylink-sign-in">`, decision 0185), for the
 * link the HTML was served for: read once, when the sign-in page's module loads, with the id in the address then.
 */
import { SIGN_IN_METHOD_META, SignInMethods, type SignInMethod } from '@paylink/shared';

function readHint(): { linkId: string | null; method: SignInMethod; phone: string | null } | null {
  if (typeof document === 'undefined') return null;
  const meta = document.querySelector(`meta[name="${SIGN_IN_METHOD_META}"]`);
  const method = meta?.getAttribute('content');
  if (!(SignInMethods as readonly (string | null | undefined)[]).includes(method)) return null;
  return {
    linkId: new URLSearchParams(window.location.search).get('id'),
    method: method as SignInMethod,
    // With the first screen (decision 0226) the server read the masked phone for the page: no second read.
    phone: method === 'sms' ? (meta?.getAttribute('data-phone') ?? null) : null,
  };
}

const served = readHint();

export function signInMethodHint(linkId: string): SignInMethod | undefined {
  return served?.linkId === linkId ? served.method : undefined;
}

/** The masked phone the server wrote with the method (`data-phone`), for the link the HTML was served for. */
export function signInPhoneHint(linkId: string): string | undefined {
  return served?.linkId === linkId && served.phone !== null ? served.phone : undefined;
}
