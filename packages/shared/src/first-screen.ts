/**
 * The sign-in page's first screen as static HTML (issue 30, decision 0226): the web build writes its markup per
 * language with slots (`apps/web/src/first-screen.ts`, into `dist/first-screen.json`), the server fills the slots with
 * the link's and the practice's values and writes the screen into /auth's HTML, so the browser paints the title, the
 * instruction and the form before any script runs. Here: the file's shape and the filling, shared by both sides.
 */
import { formatPhoneNumber } from './display.js';

/** The templates' file in the built web app. */
export const FIRST_SCREEN_FILE = 'first-screen.json';

/** The element holding the server's screen (the same id as the boot frame's: the app takes both over alike). */
export const FIRST_SCREEN_ID = 'paylink-boot';

/** `data-first-screen-field` on an editable field: the app carries its value and focus over to its own field. */
export const FIRST_SCREEN_FIELD_ATTR = 'data-first-screen-field';

export type FirstScreenPage = 'authSms' | 'authEmail';

/**
 * One language's markup. `pages` hold `%%slot%%`s: text slots (`phone`, `practiceName`, `lang`) are escaped when
 * filled, `practiceMark` and `footerHelp` take the parts below, filled in turn.
 */
export interface FirstScreenLanguage {
  pages: Record<FirstScreenPage, string>;
  /** The practice's logo (slot `logoUrl`), or its monogram (slot `initial`). */
  logo: string;
  monogram: string;
  /** The footer's help line (slot `contacts`) and its two contacts (`tel`, `phone`; `email`) and what joins them. */
  help: string;
  helpPhone: string;
  helpEmail: string;
  helpBetween: string;
}

export type FirstScreenTemplates = Record<string, FirstScreenLanguage>;

export interface FirstScreenValues {
  practice: { name: string; logoUrl: string | null; supportPhone: string; supportEmail: string };
  /** The masked phone the SMS page shows (`GET /api/patients/:id/notoken`'s answer). */
  phone?: string;
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** Fills `%%name%%` slots: strings are text (escaped), `{ html }` values go in as they are. */
export function fillSlots(template: string, values: Record<string, string | { html: string }>): string {
  return template.replace(/%%(\w+)%%/g, (whole, name: string) => {
    const v = values[name];
    if (v === undefined) return whole;
    return typeof v === 'string' ? escapeHtml(v) : v.html;
  });
}

/** The page's markup in one language with the link's and the practice's values, or null without a template. */
export function renderFirstScreen(
  templates: FirstScreenTemplates,
  lng: string,
  page: FirstScreenPage,
  values: FirstScreenValues,
): string | null {
  const t = templates[lng];
  const template = t?.pages[page];
  if (!t || !template) return null;
  const { practice } = values;
  const practiceMark = practice.logoUrl
    ? fillSlots(t.logo, { logoUrl: practice.logoUrl })
    : fillSlots(t.monogram, { initial: (practice.name || 'P').slice(0, 1) });
  const contacts = [
    practice.supportPhone
      ? fillSlots(t.helpPhone, {
          tel: `tel:${practice.supportPhone.replace(/[^\d+]/g, '')}`,
          phone: formatPhoneNumber(practice.supportPhone),
        })
      : '',
    practice.supportPhone && practice.supportEmail ? t.helpBetween : '',
    practice.supportEmail ? fillSlots(t.helpEmail, { email: practice.supportEmail }) : '',
  ].join('');
  const footerHelp =
    practice.supportPhone || practice.supportEmail ? fillSlots(t.help, { contacts: { html: contacts } }) : '';
  // One pass: a value that holds "%%…%%" stays text.
  return fillSlots(template, {
    practiceMark: { html: practiceMark },
    footerHelp: { html: footerHelp },
    lang: lng,
    practiceName: practice.name || '\u00a0',
    senderName: practice.name,
    phone: values.phone ?? '',
  });
}
