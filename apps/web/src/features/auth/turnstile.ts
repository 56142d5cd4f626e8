/**
 * Cloudflare Turnstile, invisible: the script (from the URL the server's config names, TURNSTILE_SCRIPT_URL) loads only
 * when the server gave a site key, renders into a hidden container and yields a token per execute(). Sandbox
 * installations have no site key and send no token.
 */
interface TurnstileApi {
  render(el: HTMLElement, opts: Record<string, unknown>): string;
  execute(idOrEl: string | HTMLElement): void;
  reset(id: string): void;
  remove(id: string): void;
}
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** The widget script with explicit rendering (Cloudflare's `?render=explicit`: nothing renders until render()). */
export function widgetScriptSrc(scriptUrl: string): string {
  const u = new URL(scriptUrl, window.location.href);
  u.searchParams.set('render', 'explicit');
  return u.toString();
}

function loadScript(scriptUrl: string): Promise<TurnstileApi> {
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    if (window.turnstile) return resolve(window.turnstile);
    const s = document.createElement('script');
    s.src = widgetScriptSrc(scriptUrl);
    s.async = true;
    s.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing')));
    s.onerror = () => {
      loading = null;
      reject(new Error('turnstile failed to load'));
    };
    document.head.appendChild(s);
  });
  return loading;
}

/** One captcha token for the given site key, or throws (the caller shows auth/captcha-check-failed). */
export async function getCaptchaToken(
  widget: { siteKey: string; scriptUrl: string | null },
  container: HTMLElement,
  language: string,
): Promise<string> {
  if (!widget.scriptUrl) throw new Error('no captcha script configured');
  const turnstile = await loadScript(widget.scriptUrl);
  return new Promise<string>((resolve, reject) => {
    const id = turnstile.render(container, {
      sitekey: widget.siteKey,
      size: 'invisible',
      execution: 'execute',
      appearance: 'interaction-only',
      language,
      callback: (token: string) => {
        resolve(token);
        turnstile.remove(id);
      },
      'error-callback': () => {
        reject(new Error('captcha failed'));
        turnstile.remove(id);
      },
    });
    turnstile.execute(id);
  });
}
