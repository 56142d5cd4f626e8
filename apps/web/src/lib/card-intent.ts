/**
 * Where sign-in goes next when the patient came for the update-card page (`/auth?id=…&next=card`, the link in a
 * declined-instalment or expiring-card message; decision 0211). Kept per link in localStorage too, because an e-mailed
 * sign-in link opens /auth again without the parameter, often in another tab.
 */
const KEY = 'paylink_next_card';
export const UPDATE_CARD_PATH = '/updatecard';

export function rememberCardIntent(linkId: string, search: string): void {
  if (new URLSearchParams(search).get('next') !== 'card') return;
  try {
    window.localStorage.setItem(KEY, linkId);
  } catch {
    /* storage disabled: the URL parameter still works in this tab */
  }
}

/** The page after sign-in: the update-card page when asked for on this link, else the patient information page. */
export function afterSignIn(linkId: string, search: string): string {
  if (new URLSearchParams(search).get('next') === 'card') return UPDATE_CARD_PATH;
  try {
    if (window.localStorage.getItem(KEY) === linkId) return UPDATE_CARD_PATH;
  } catch {
    /* storage disabled */
  }
  return '/patientinfo';
}

/** Signed in with the intent: it is used once, and a later sign-in on this link goes to the usual page. */
export function forgetCardIntent(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    /* storage disabled */
  }
}
