/**
 * The first screen's API calls, started by a small inline script in index.html while the page's HTML is parsed
 * (decision 0180), instead of after the entry JavaScript has downloaded and run: on a slow phone that is the
 * difference between the sign-in form showing at ~2 s or ~1.4 s.
 *
 * The script makes the same calls the app makes, with the same headers (the API key and the tunnel-warning header,
 * no token: each of these calls is made with `auth: false`) and credentials; the app's API client takes each answer
 * once instead of asking again (`takeEarlyCall` in lib/api-client.ts), and asks the server itself for anything the
 * script did not start. What it starts:
 * - GET /api/config, on every route (the root layout waits for it);
 * - on /auth?id=<valid link id> (not an e-mailed sign-in link): GET /api/auth/options, and, only when that answer
 *   says the link signs in by SMS and nothing is persisted in this browser yet (a returning patient may be signed in
 *   and sent on to /patientinfo without the sign-in page), GET /api/patients/<id>/notoken?c=p: the masked phone the
 *   page shows. The notoken entry is registered at once as a promise of the answer or null, so the page never asks
 *   twice and never asks when the script did not.
 *   It is not started when the server wrote the masked phone into the page (`<meta … data-phone>`, decision 0226):
 *   the page takes it from there.
 *
 * `earlyCalls` runs in the page as written here (turned into text by `earlyCallsScript`): no imports, no closures
 * over module values, no newer syntax than the browsers we support. Any error leaves the app to ask by itself.
 */
export interface EarlyCallsConfig {
  /** VITE_API_BASE without a trailing slash ('' = this origin). */
  base: string;
  /** VITE_API_KEY, the static API key every product call sends (it is in the entry JavaScript too). */
  key: string;
  /** LINK_ID_PATTERN's source. */
  linkIdPattern: string;
  /** The persisted store's localStorage key. */
  persistKey: string;
}

/** Where the answers wait: absolute URL → the fetch's promise (or, for notoken, of the answer or null). */
export const EARLY_CALLS_GLOBAL = '__paylinkEarlyCalls';

export function earlyCalls(c: EarlyCallsConfig, w: Window = window): void {
  try {
    const loc = w.location;
    const calls: Record<string, Promise<Response | null>> = {};
    (w as unknown as Record<string, unknown>)['__paylinkEarlyCalls'] = calls;
    const url = (path: string) => new URL(c.base + path, loc.origin).href;
    const get = (path: string) => {
      const p = w.fetch(url(path), {
        method: 'GET',
        headers: { 'x-api-key': c.key, 'ngrok-skip-browser-warning': 'true' },
        credentials: 'same-origin',
      });
      p.catch(() => undefined); // the app reports a failure when it takes the answer
      return p;
    };
    calls[url('/api/config')] = get('/api/config');
    if (loc.pathname !== '/auth') return;
    const q = new URLSearchParams(loc.search);
    const id = q.get('id');
    if (!id || !new RegExp(c.linkIdPattern).test(id) || q.get('oobCode')) return;
    const options = get('/api/auth/options?linkId=' + id);
    calls[url('/api/auth/options?linkId=' + id)] = options;
    if (w.localStorage.getItem(c.persistKey) !== null) return;
    // The server wrote the masked phone into the page (decision 0226): the app takes it from there.
    if (w.document.querySelector('meta[data-phone]')) return;
    const phone = options
      .then((r) => (r.ok ? (r.clone().json() as Promise<{ method?: unknown }>) : null))
      .then((o) => (o && o.method === 'sms' ? get('/api/patients/' + id + '/notoken?c=p') : null));
    phone.catch(() => undefined);
    calls[url('/api/patients/' + id + '/notoken?c=p')] = phone;
  } catch {
    // no early calls: the app makes them
  }
}

/** The inline script's text for index.html. */
export function earlyCallsScript(config: EarlyCallsConfig): string {
  return `(${earlyCalls.toString()})(${JSON.stringify(config)})`;
}
