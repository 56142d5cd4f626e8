import type { Language } from '@paylink/shared';

/** The language the patient reads the app in, for the SMS or e-mail the server is about to send ('es-MX' → 'es'). */
export function messageLanguage(appLanguage: string | undefined): Language {
  return appLanguage?.toLowerCase().startsWith('es') ? 'es' : 'en';
}
