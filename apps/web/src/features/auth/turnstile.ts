/**
 * Cloudflare Turnstile, invisible: the script loads only when the server gave a site key, renders into a hidden
 * container and yields a token per execute(). Sandbox installations have no site key and send no token.
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

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
let loading: Promise<TurnstileApi> | null = null;

function loadScript(): Promise<TurnstileApi> {
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    if (window.turnstile) return resolve(window.turnstile);
    const s = document.createElement('script');
    s.src = SCRIPT;
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
export async function getCaptchaToken(siteKey: string, container: HTMLElement, language: string): Promise<string> {
  const turnstile = await loadScript();
  return new Promise<string>((resolve, reject) => {
    const id = turnstile.render(container, {
      sitekey: siteKey,
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
