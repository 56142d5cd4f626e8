/**
 * The sign-in page's first screen as static HTML (issue 30, decision 0226). The server writes it into /auth's HTML
 * (before `#root`, as `<div id="paylink-boot">`), so the browser paints the title, the instruction and the phone or
 * e-mail form before any script runs, and a browser without JavaScript shows them too. This file builds the markup
 * per language at build time (the Vite plugin in vite.config.ts writes `dist/first-screen.json`) from the app's own
 * translations; the server fills its slots (`renderFirstScreen` in packages/shared: the practice, the masked phone).
 *
 * The markup is what `PageLayout` with `SmsSignIn` / `EmailSignIn` renders on a first visit (first-screen.test.tsx
 * compares both), with fixed ids where React has `useId`'s, and `method="dialog"` on the forms: outside a dialog
 * such a form never submits, so Enter before the app has taken over goes nowhere. The app takes it over without a
 * change: the sign-in page renders nothing while it loads and this screen is there (`SignInLoading`), and its form's
 * `PageLayout` removes the screen in a layout effect, before the browser paints, carrying over what was typed and
 * where the focus was (`data-first-screen-field`), and doing what was pressed before it ran (`firstScreenPending`).
 */
// Relative, not @paylink/shared: vite.config.ts runs this file in Node at build time.
import {
  FIRST_SCREEN_FIELD_ATTR,
  FIRST_SCREEN_ID,
  escapeHtml,
  type FirstScreenLanguage,
} from '../../../packages/shared/src/first-screen.js';

/** What a patient may start on the screen before the app runs: send the SMS code, send the e-mail link. */
export type FirstScreenAction = 'getCode' | 'send';

/** The keys of common.json the screen uses. */
export interface FirstScreenTexts {
  skipToContent: string;
  language: string;
  help: string;
  secure: string;
  phoneTitle: string;
  phoneInstruction: string;
  phoneLabel: string;
  getCode: string;
  codeTitle: string;
  codeLabel: string;
  signIn: string;
  doNotRefresh: string;
  emailTitle: string;
  emailInstruction: string;
  emailLabel: string;
  sendEmailLink: string;
  /** With i18n's `{{sender}}`. */
  emailNote: string;
}

/** common.json → the texts (read by the build from public/locales/<lng>/common.json). */
export function firstScreenTexts(common: {
  layout: Record<string, string>;
  auth: Record<string, string>;
}): FirstScreenTexts {
  const { layout, auth } = common;
  const pick = (o: Record<string, string>, k: string) => {
    const v = o[k];
    if (typeof v !== 'string') throw new Error(`first screen: no translation for ${k}`);
    return v;
  };
  return {
    skipToContent: pick(layout, 'skipToContent'),
    language: pick(layout, 'language'),
    help: pick(layout, 'help'),
    secure: pick(layout, 'secure'),
    phoneTitle: pick(auth, 'phoneTitle'),
    phoneInstruction: pick(auth, 'phoneInstruction'),
    phoneLabel: pick(auth, 'phoneLabel'),
    getCode: pick(auth, 'getCode'),
    codeTitle: pick(auth, 'codeTitle'),
    codeLabel: pick(auth, 'codeLabel'),
    signIn: pick(auth, 'signIn'),
    doNotRefresh: pick(auth, 'doNotRefresh'),
    emailTitle: pick(auth, 'emailTitle'),
    emailInstruction: pick(auth, 'emailInstruction'),
    emailLabel: pick(auth, 'emailLabel'),
    sendEmailLink: pick(auth, 'sendEmailLink'),
    emailNote: pick(auth, 'emailNote'),
  };
}

const e = escapeHtml;

/** The lock icon of the footer's secure note, as PageLayout renders it. */
const LOCK =
  '<svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M8 1a3.5 3.5 0 0 0-3.5 3.5V7H4a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm-2 6V4.5a2 2 0 1 1 4 0V7H6Z"></path></svg>';

/** LanguageSwitch's buttons with `lng` pressed. */
function languageSwitch(t: FirstScreenTexts, lng: string): string {
  const button = (code: string, short: string, name: string) =>
    `<button type="button" lang="${code}" class="btn btn-sm ${lng === code ? 'btn-primary' : 'btn-outline-primary'}" aria-pressed="${lng === code}" aria-label="${name}">${short}</button>`;
  return (
    `<div class="btn-group language-switch" role="group" aria-label="${e(t.language)}">` +
    button('en', 'EN', 'English') +
    button('es', 'ES', 'Español') +
    '</div>'
  );
}

/** PageLayout's frame around a page's content. */
function layout(t: FirstScreenTexts, lng: string, title: string, content: string): string {
  return (
    `<div id="${FIRST_SCREEN_ID}" class="app-shell" data-first-screen="${lng}">` +
    `<a class="skip-link" href="#main">${e(t.skipToContent)}</a>` +
    '<header class="app-header"><div class="app-header-inner"><div class="practice">%%practiceMark%%' +
    '<span class="practice-name">%%practiceName%%</span></div>' +
    languageSwitch(t, lng) +
    '</div></header>' +
    `<main id="main" class="app-main"><h1 tabindex="-1" class="page-title">${e(title)}</h1>${content}</main>` +
    `<footer class="app-footer">%%footerHelp%%<p class="mb-0 secure-note">${LOCK}${e(t.secure)}</p></footer>` +
    '</div>'
  );
}

const field = (name: string) => `${FIRST_SCREEN_FIELD_ATTR}="${name}"`;
/** What boot-shell.ts keeps for the app when pressed before it runs (`firstScreenPending`). */
const action = (name: FirstScreenAction) => `data-first-screen-action="${name}"`;

/** SmsSignIn before a code is sent. */
function smsPage(t: FirstScreenTexts, lng: string): string {
  return layout(
    t,
    lng,
    t.phoneTitle,
    `<div class="card-panel"><p>${e(t.phoneInstruction)}</p>` +
      `<div class="mb-3"><label for="fs-phone" class="form-label">${e(t.phoneLabel)}</label>` +
      '<input id="fs-phone" class="form-control" type="text" readonly="" value="%%phone%%"></div>' +
      `<button type="button" class="btn btn-primary w-100" ${action('getCode')}>${e(t.getCode)}</button>` +
      '<p class="visually-hidden" role="status" aria-live="polite"></p><div class="captcha-box"></div></div>' +
      '<form class="card-panel" novalidate="" method="dialog">' +
      `<h2 class="h5">${e(t.codeTitle)}</h2>` +
      `<div class="mb-3"><label for="fs-code" class="form-label">${e(t.codeLabel)}</label>` +
      `<input id="fs-code" class="form-control form-control-lg otp-input" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" aria-describedby="fs-code-hint" ${field('code')} value="">` +
      '<div id="fs-code-hint" class="form-text">\u00a0</div></div>' +
      `<button type="submit" class="btn btn-primary w-100" disabled="">${e(t.signIn)}</button>` +
      `<p class="form-text mt-3 mb-0">${e(t.doNotRefresh)}</p></form><div></div>`,
  );
}

/** EmailSignIn before anything is typed. */
function emailPage(t: FirstScreenTexts, lng: string): string {
  return layout(
    t,
    lng,
    t.emailTitle,
    `<form class="card-panel" novalidate="" method="dialog" ${action('send')}><p>${e(t.emailInstruction)}</p>` +
      `<div class="mb-3"><label for="fs-email" class="form-label">${e(t.emailLabel)}</label>` +
      `<input id="fs-email" class="form-control " type="email" autocomplete="email" inputmode="email" required="" ${field('email')} value=""></div>` +
      `<button type="submit" class="btn btn-primary w-100">${e(t.sendEmailLink)}</button>` +
      '<div aria-live="polite"></div>' +
      // i18n's {{sender}} becomes the slot the server fills with the practice's name.
      `<p class="form-text mt-3 mb-0">${e(t.emailNote).replace(/\{\{\s*sender\s*\}\}/g, '%%practiceName%%')}</p>` +
      '<div class="captcha-box"></div></form><div></div>',
  );
}

/** One language's templates (slots as `renderFirstScreen` fills them). */
export function firstScreenTemplates(t: FirstScreenTexts, lng: string): FirstScreenLanguage {
  return {
    pages: { authSms: smsPage(t, lng), authEmail: emailPage(t, lng) },
    logo: '<img class="practice-logo" src="%%logoUrl%%" alt="" width="40" height="40">',
    monogram: '<span class="practice-monogram" aria-hidden="true">%%initial%%</span>',
    help: `<p class="mb-1">${e(t.help)} %%contacts%%</p>`,
    helpPhone: '<a href="%%tel%%">%%phone%%</a>',
    helpEmail: '<a href="mailto:%%email%%">%%email%%</a>',
    helpBetween: ' · ',
  };
}

/** The element holding the server's screen, if the page has one and it is still there. */
export function firstScreenElement(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const el = document.getElementById(FIRST_SCREEN_ID);
  return el?.hasAttribute('data-first-screen') ? el : null;
}

/** What was typed into the server's screen's field `name` before the app took over ('' when nothing). */
export function firstScreenValue(name: string): string {
  const input = firstScreenElement()?.querySelector<HTMLInputElement>(`[${FIRST_SCREEN_FIELD_ATTR}="${name}"]`);
  return input?.value ?? '';
}

/** The field of the server's screen that has the focus, by its `data-first-screen-field`, else null. */
export function firstScreenFocus(): string | null {
  const active = typeof document === 'undefined' ? null : document.activeElement;
  if (!active || !firstScreenElement()?.contains(active)) return null;
  return active.getAttribute(FIRST_SCREEN_FIELD_ATTR);
}

/** What was pressed on the server's screen before the app took over (kept by boot-shell.ts), else null. */
export function firstScreenPending(): FirstScreenAction | null {
  const pending = firstScreenElement()?.getAttribute('data-first-screen-pending');
  return pending === 'getCode' || pending === 'send' ? pending : null;
}
