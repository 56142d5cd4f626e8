/**
 * The sign-in method the server wrote into this page's HTML (`<meta name="paylink-sign-in">`, decision 0185), for the
 * link the HTML was served for: read once, when the sign-in page's module loads, with the id in the address then.
 */
import { SIGN_IN_METHOD_META, SignInMethods, type SignInMethod } from '@paylink/shared';

function readHint(): { linkId: string | null; method: SignInMethod } | null {
  if (typeof document === 'undefined') return null;
  const method = document.querySelector(`meta[name="${SIGN_IN_METHOD_META}"]`)?.getAttribute('content');
  if (!(SignInMethods as readonly (string | null | undefined)[]).includes(method)) return null;
  return { linkId: new URLSearchParams(window.location.search).get('id'), method: method as SignInMethod };
}

const served = readHint();

export function signInMethodHint(linkId: string): SignInMethod | undefined {
  return served?.linkId === linkId ? served.method : undefined;
}
