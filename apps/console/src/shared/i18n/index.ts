/**
 * The console's strings: English and Spanish bundled with the app (a few kilobytes; no extra request before the
 * sign-in screen). The choice is kept in local storage; the first visit follows the browser's language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { es } from './es';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'paylink.console.lng';

function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'es') return saved;
  } catch {
    // storage may be blocked; fall through to the browser's language
  }
  const nav = typeof navigator === 'undefined' ? 'en' : navigator.language;
  return nav.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export function initI18n(lng: Language = initialLanguage()) {
  i18n.on('languageChanged', (l) => {
    if (typeof document !== 'undefined') document.documentElement.lang = l;
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // not fatal
    }
  });
  return i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    resources: { en: { translation: en }, es: { translation: es } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

export default i18n;
