/**
 * i18n (spec section 1): i18next + http backend (/locales/{lng}/{ns}.json) + browser language detector with its
 * default order (querystring lng, cookie i18next, localStorage i18nextLng, sessionStorage, navigator, htmlTag; cached
 * in localStorage), English fallback, Spanish.
 * Namespaces: `common` (default; shell, auth, patient info, confirmation, errors), `steps` and `payment` (document
 * and payment pages: useTranslation('steps') / useTranslation('payment') load them on demand).
 */
import i18n, { type InitOptions } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['en', 'es'] as const;

export const i18nOptions: InitOptions = {
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  load: 'languageOnly',
  ns: ['common'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
};

export function initI18n() {
  i18n.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  return i18n.use(HttpBackend).use(LanguageDetector).use(initReactI18next).init(i18nOptions);
}

export default i18n;
