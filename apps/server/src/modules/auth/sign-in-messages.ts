import type { Language } from '@paylink/shared';
import { composeEmail, smsPracticeName, type EmailTexts, type PracticeInfo } from '../../messages/index.js';

/**
 * The sign-in code SMS. Under 160 characters and, for the default texts, GSM-7 only (the Spanish avoids á/í/ó/ú,
 * which would switch the message to UCS-2 and split it at 70 characters).
 */
export function signInCodeSms(o: {
  lang: Language;
  practiceName: string;
  code: string;
  minutes: number;
  /** The app's public URL: on https it adds the origin-bound line browsers use to autofill the code on our site only. */
  publicUrl?: string;
}): string {
  const name = smsPracticeName(o.practiceName);
  const text =
    o.lang === 'es'
      ? `${name}: su clave de acceso es ${o.code}. Vence en ${o.minutes} minutos. No la comparta con nadie.`
      : `${name}: your sign-in code is ${o.code}. It expires in ${o.minutes} minutes. Do not share it with anyone.`;
  const url = o.publicUrl ? new URL(o.publicUrl) : null;
  // WebOTP / domain-bound codes: "@host #code" as the last line; only for https without a port, and only if it fits.
  const bound = url && url.protocol === 'https:' && !url.port ? `${text}\n\n@${url.hostname} #${o.code}` : text;
  return bound.length < 160 ? bound : text;
}

interface SignInLinkFacts {
  practice: string;
  firstName: string;
  minutes: number;
}

const SIGN_IN_LINK: EmailTexts<SignInLinkFacts> = {
  en: (f) => ({
    subject: `Sign in to ${f.practice}`,
    title: 'Your sign-in link',
    paragraphs: [
      `Hello ${f.firstName},`,
      `Use the button below to sign in and continue with your payment to ${f.practice}. The link works once and expires in ${f.minutes} minutes.`,
      'If you did not ask for it, you can ignore this e-mail.',
    ],
    action: 'Sign in',
  }),
  es: (f) => ({
    subject: `Inicie sesión en ${f.practice}`,
    title: 'Su enlace para iniciar sesión',
    paragraphs: [
      `Hola ${f.firstName}:`,
      `Use el botón de abajo para iniciar sesión y continuar con su pago a ${f.practice}. El enlace solo funciona una vez y vence en ${f.minutes} minutos.`,
      'Si usted no lo pidió, puede ignorar este correo.',
    ],
    action: 'Iniciar sesión',
  }),
};

export function signInLinkEmail(o: {
  lang: Language;
  practice: PracticeInfo;
  firstName: string;
  url: string;
  minutes: number;
}): { subject: string; text: string; html: string } {
  return composeEmail(
    SIGN_IN_LINK,
    { practice: o.practice.name, firstName: o.firstName, minutes: o.minutes },
    { lang: o.lang, practice: o.practice, url: o.url },
  );
}
