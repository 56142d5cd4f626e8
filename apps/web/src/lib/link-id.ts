/** The link id's extra homes (spec section 3): local storage `link_id` and the `link_id` cookie (set when none). */
const LINK_ID_KEY = 'link_id';

export function rememberLinkId(linkId: string) {
  try {
    window.localStorage.setItem(LINK_ID_KEY, linkId);
  } catch {
    /* storage disabled: the store still has it */
  }
  if (!readCookie(LINK_ID_KEY)) {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${LINK_ID_KEY}=${encodeURIComponent(linkId)}; Path=/; SameSite=Strict; Max-Age=${60 * 60 * 24 * 30}${secure}`;
  }
}

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}
