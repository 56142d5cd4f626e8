import type { PracticeInfo } from '../../messages/index.js';
import { renderEmail } from '../../messages/index.js';

type Mail = { subject: string; text: string; html: string };

/**
 * The e-mails about a staff user's password (issue 29, item 3). Staff have no language of their own, so like the
 * two-factor lockout e-mail (lockout-email.ts) each says everything in English, then in Spanish.
 */
function bilingual(o: {
  practice: PracticeInfo;
  subject: string;
  en: string[];
  es: string[];
  action: { label: string; url: string };
}): Mail {
  return {
    subject: o.subject,
    ...renderEmail({
      lang: 'en',
      practice: o.practice,
      title: o.subject,
      paragraphs: [...o.en, ...o.es],
      action: o.action,
    }),
  };
}

/** After the user changed their password, or set a new one through a reset link. */
export function passwordChangedEmail(o: {
  practice: PracticeInfo;
  email: string;
  via: 'console' | 'reset_link';
  consoleUrl: string;
}): Mail {
  return bilingual({
    practice: o.practice,
    subject: 'Your Paylink password was changed · Se cambió su contraseña de Paylink',
    en: [
      o.via === 'console'
        ? `The password of the Paylink console account ${o.email} was changed in the console. Your other sign-ins and CLI tokens were ended.`
        : `The password of the Paylink console account ${o.email} was set with a "forgot password" link. Every sign-in and CLI token of the account was ended.`,
      'If this was not you, ask an admin to reset your password now.',
    ],
    es: [
      o.via === 'console'
        ? `La contraseña de la cuenta de la consola de Paylink ${o.email} se cambió en la consola. Se cerraron sus otras sesiones y sus tokens de la CLI.`
        : `La contraseña de la cuenta de la consola de Paylink ${o.email} se estableció con un enlace de «olvidé mi contraseña». Se cerraron todas las sesiones y los tokens de la CLI de la cuenta.`,
      'Si no fue usted, pida ahora a un administrador que restablezca su contraseña.',
    ],
    action: { label: 'Open the console · Abrir la consola', url: o.consoleUrl },
  });
}

/** The "forgot password" e-mail: a single-use link, valid `minutes`. */
export function passwordResetLinkEmail(o: {
  practice: PracticeInfo;
  email: string;
  url: string;
  minutes: number;
}): Mail {
  return bilingual({
    practice: o.practice,
    subject: 'Set a new Paylink password · Establezca una nueva contraseña de Paylink',
    en: [
      `Someone asked to set a new password for the Paylink console account ${o.email}. The button below opens a page where you choose it. The link works once, for ${o.minutes} minutes.`,
      'If you did not ask, ignore this e-mail: your password stays as it is.',
    ],
    es: [
      `Alguien pidió establecer una nueva contraseña para la cuenta de la consola de Paylink ${o.email}. El botón de abajo abre una página donde la elige. El enlace funciona una vez, durante ${o.minutes} minutos.`,
      'Si usted no lo pidió, ignore este correo: su contraseña no cambia.',
    ],
    action: { label: 'Set a new password · Establecer una nueva contraseña', url: o.url },
  });
}
