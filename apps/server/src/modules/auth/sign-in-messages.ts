import type { Language } from '@paylink/shared';
import { renderEmail } from '../../messages/index.js';
import type { PracticeInfo } from '../../messages/index.js';

/** Keeps the SMS in one segment even with a long practice name (no '…': it is not in the GSM-7 alphabet). */
function shortName(name: string): string {
  return name.length <= 40 ? name : name.slice(0, 40).trimEnd();
}

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
  const name = shortName(o.practiceName);
  const text =
    o.lang === 'es'
      ? `${name}: su clave de acceso es ${o.code}. Vence en ${o.minutes} minutos. No la comparta con nadie.`
      : `${name}: your sign-in code is ${o.code}. It expires in ${o.minutes} minutes. Do not share it with anyone.`;
  const url = o.publicUrl ? new URL(o.publicUrl) : null;
  // WebOTP / domain-bound codes: "@host #code" as the last line; only for https without a port, and only if it fits.
  const bound = url && url.protocol === 'https:' && !url.port ? `${text}\n\n@${url.hostname} #${o.code}` : text;
  return bound.length < 160 ? bound : text;
}

export function signInLinkEmail(o: {
  lang: Language;
  practice: PracticeInfo;
  firstName: string;
  url: string;
  minutes: number;
}): { subject: string; text: string; html: string } {
  const es = o.lang === 'es';
  const subject = es ? `Inicie sesión en ${o.practice.name}` : `Sign in to ${o.practice.name}`;
  const body = renderEmail({
    lang: o.lang,
    practice: o.practice,
    title: es ? 'Su enlace para iniciar sesión' : 'Your sign-in link',
    paragraphs: es
      ? [
          `Hola ${o.firstName}:`,
          `Use el botón de abajo para iniciar sesión y continuar con su pago a ${o.practice.name}. El enlace solo funciona una vez y vence en ${o.minutes} minutos.`,
          'Si usted no lo pidió, puede ignorar este correo.',
        ]
      : [
          `Hello ${o.firstName},`,
          `Use the button below to sign in and continue with your payment to ${o.practice.name}. The link works once and expires in ${o.minutes} minutes.`,
          'If you did not ask for it, you can ignore this e-mail.',
        ],
    action: { label: es ? 'Iniciar sesión' : 'Sign in', url: o.url },
  });
  return { subject, ...body };
}
