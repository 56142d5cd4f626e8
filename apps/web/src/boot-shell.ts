/**
 * The first screen's frame painted from the HTML (decisions 0184, 0185): a small inline script in index.html, run
 * while the body is parsed, puts the page's loading state before `#root` (`<div id="paylink-boot">`):
 * - on `/patientinfo`, for a browser with a persisted store (a signed-in patient reopening the page): the page frame,
 *   the heading 'Patient information', the page's intro line and 'Loading...' with a spinner, what the page shows
 *   until the patient data is present;
 * - on `/auth?id=…` (not an e-mailed sign-in link), for a browser with nothing persisted, when the server named the
 *   link's sign-in method in the HTML (`<meta name="paylink-sign-in">`, decision 0185): the page frame, the sign-in
 *   heading and instruction of that method and a spinner, what the sign-in page shows until the options and the
 *   masked phone are there.
 * The patient sees the page at once instead of after the JavaScript (and, on /patientinfo, the decryption of the
 * store and two API calls).
 *
 * The texts are the app's own translations (`public/locales/{en,es}/common.json`, read at build time) in the
 * language the app will start in (the same detection order as `detectLanguage` in i18n/index.ts); the script sets
 * the html lang to it. The frame is `aria-busy` with a `role="status"` spinner: a screen reader hears a page that is
 * loading, as it does once React shows the same state.
 *
 * While the frame is in the page, React's loading skeletons render nothing (`PageSkeleton`), and the first page
 * frame React commits (`PageLayout`, every page's frame) removes it in a layout effect, before the browser paints:
 * the same heading at the same place, no flash and no layout shift.
 *
 * When the server wrote /auth's first screen into the HTML (decision 0226, first-screen.ts: the title, instruction and
 * form, in the language it guessed from the request), the script keeps it if the app will start in that language and
 * the page is the sign-in page as above; otherwise (another language kept in this browser's storage, or a persisted
 * store) it removes it, and paints this frame where the conditions above call for one.
 *
 * `bootShell` runs in the page as written here (turned into text by `bootShellScript`): no imports, no closures over
 * module values. Any error leaves the page to React as before.
 */

export const BOOT_SHELL_ID = 'paylink-boot';

export type BootPage = 'patientinfo' | 'authSms' | 'authEmail';

/** The texts the frames show, per language: the keys of common.json. */
export interface BootTexts {
  patientInfoTitle: string;
  patientInfoIntro: string;
  loading: string;
  phoneTitle: string;
  phoneInstruction: string;
  emailTitle: string;
  emailInstruction: string;
}

export interface BootShellConfig {
  /** The frame's markup per page and language. */
  markup: Record<BootPage, Record<string, string>>;
  /** The name of the meta tag naming /auth's sign-in method (SIGN_IN_METHOD_META). */
  signInMeta: string;
  /** The supported languages, the first one the default (i18n's LANGUAGES). */
  languages: readonly string[];
  /** The persisted store's localStorage key. */
  persistKey: string;
  /** The frame's id, which the server's first screen shares (BOOT_SHELL_ID). */
  id: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** Bootstrap's spinner as `<Spinner />` renders it (components/spinner.tsx). */
const spinner = (label: string) =>
  `<span class="spinner-border" role="status" aria-live="polite"><span class="visually-hidden">${escapeHtml(label)}</span></span>`;

/** The page frame as `PageLayout` lays it out (header of 4rem, main with the heading), without the controls. */
const frame = (title: string, body: string) =>
  `<div id="${BOOT_SHELL_ID}" class="app-shell" aria-busy="true"><header class="app-header"><div class="app-header-inner"></div></header>` +
  `<main class="app-main"><h1 class="page-title">${escapeHtml(title)}</h1>${body}</main></div>`;

/** The sign-in page while it loads, as `SignInLoading` renders it (features/auth/sign-in-loading.tsx). */
const signInFrame = (title: string, instruction: string, loading: string) =>
  frame(
    title,
    `<div class="card-panel"><p>${escapeHtml(instruction)}</p>` +
      `<div class="d-flex justify-content-center py-3">${spinner(loading)}</div></div>`,
  );

/** The frames' markup for one language (built at build time). */
export function bootShellMarkup(t: BootTexts): Record<BootPage, string> {
  return {
    authSms: signInFrame(t.phoneTitle, t.phoneInstruction, t.loading),
    authEmail: signInFrame(t.emailTitle, t.emailInstruction, t.loading),
    patientinfo: frame(
      t.patientInfoTitle,
      `<p class="lead-hint">${escapeHtml(t.patientInfoIntro)}</p>` +
        `<div class="app-loading flex-column gap-2" aria-live="polite">${spinner(t.loading)}` +
        `<p class="mb-0" aria-hidden="true">${escapeHtml(t.loading)}</p></div>`,
    ),
  };
}

export function bootShell(c: BootShellConfig, w: Window = window): void {
  try {
    const d = w.document;
    const loc = w.location;
    const q = new URLSearchParams(loc.search);
    // Storage is read only on the two pages with a frame (a first read costs a few ms on a phone).
    const persisted = () => w.localStorage.getItem(c.persistKey) !== null;
    let page: BootPage | null = null;
    if (loc.pathname === '/patientinfo' && persisted()) page = 'patientinfo';
    if (loc.pathname === '/auth' && !q.get('oobCode')) {
      const meta = d.querySelector('meta[name="' + c.signInMeta + '"]');
      const method = meta ? meta.getAttribute('content') : null;
      // A persisted store may be a signed-in patient the page sends on: no sign-in frame then.
      if ((method === 'sms' || method === 'email') && !persisted()) page = method === 'sms' ? 'authSms' : 'authEmail';
    }
    // The server's first screen (decision 0226: /auth's form as static HTML, before #root), in the language the
    // server guessed: kept when the app will start in that language on the same page, else this frame replaces it.
    const served = d.getElementById(c.id);
    const servedLng = served ? served.getAttribute('data-first-screen') : null;
    const root = d.getElementById('root');
    if (!page || !root) {
      if (served) served.remove();
      return;
    }
    // i18n's detection order: query lng, cookie i18next, localStorage and sessionStorage i18nextLng, the browser's
    // languages, the html lang; the first supported one wins, else the first language.
    const stored = (s: () => Storage) => {
      try {
        return s().getItem('i18nextLng');
      } catch {
        return null;
      }
    };
    const candidates: unknown[] = [
      q.get('lng'),
      (/(?:^|;\s*)i18next=([^;]*)/.exec(d.cookie) || [])[1],
      stored(() => w.localStorage),
      stored(() => w.sessionStorage),
    ].concat(Array.from(w.navigator.languages || []), [w.navigator.language, d.documentElement.getAttribute('lang')]);
    let lng = c.languages[0]!;
    for (const code of candidates) {
      const l = typeof code === 'string' ? code.toLowerCase().split(/[-_]/)[0] : '';
      if (l && c.languages.indexOf(l) >= 0) {
        lng = l;
        break;
      }
    }
    if (served && servedLng === lng) {
      // A tap on 'Get Verification code' or a sent e-mail form before the app runs is kept for the app to do once it
      // has taken the screen over (first-screen.ts), instead of being lost.
      const keep = (action: string | null) => {
        if (action) served.setAttribute('data-first-screen-pending', action);
      };
      served.addEventListener('click', (ev) => {
        const button = ev.target instanceof Element ? ev.target.closest('button[data-first-screen-action]') : null;
        if (button) keep(button.getAttribute('data-first-screen-action'));
      });
      served.addEventListener('submit', (ev) => {
        ev.preventDefault();
        keep(ev.target instanceof Element ? ev.target.getAttribute('data-first-screen-action') : null);
      });
      return;
    }
    if (served) served.remove();
    const markup = c.markup[page][lng];
    if (!markup) return;
    d.documentElement.setAttribute('lang', lng);
    root.insertAdjacentHTML('beforebegin', markup);
  } catch {
    // no frame: React paints the first screen
  }
}

/** The inline script's text for index.html (`<` escaped: the markup never closes the script element). */
export function bootShellScript(config: BootShellConfig): string {
  return `(${bootShell.toString()})(${JSON.stringify(config).replace(/</g, '\\u003c')})`;
}

/** The frame, if it is still in the page. */
export function bootShellElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(BOOT_SHELL_ID);
}
