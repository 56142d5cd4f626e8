/**
 * The sign-in page's first call (GET /api/auth/options), started by the entry beside the page's chunk instead of
 * after the page has loaded and rendered: one round trip less before a patient sees the sign-in form on a slow phone.
 * The call reads no patient data and writes nothing. Used once: the page takes it for its link; later visits ask again.
 */
import { LINK_ID_PATTERN, patientEndpoints, type AuthOptions } from '@paylink/shared';
import { call } from '../../lib/api-client';

let early: { linkId: string; options: Promise<AuthOptions> } | null = null;

export function startSignInOptions(location: Pick<Location, 'pathname' | 'search'> = window.location): void {
  if (location.pathname !== '/auth') return;
  const params = new URLSearchParams(location.search);
  const linkId = params.get('id');
  // The page does not ask for options on an e-mailed sign-in link (it finishes the sign-in instead).
  if (!linkId || !LINK_ID_PATTERN.test(linkId) || params.get('oobCode')) return;
  const options = call(patientEndpoints.authOptions, { query: { linkId }, auth: false });
  options.catch(() => undefined); // the page reports a failure when it takes the promise
  early = { linkId, options };
}

export function takeSignInOptions(linkId: string): Promise<AuthOptions> | undefined {
  const taken = early;
  early = null;
  return taken?.linkId === linkId ? taken.options : undefined;
}
