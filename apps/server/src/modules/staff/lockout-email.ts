import type { PracticeInfo } from '../../messages/index.js';
import { renderEmail } from '../../messages/index.js';

/**
 * The e-mail to a staff user whose authenticator codes were locked after too many wrong ones (issue 26). Staff have
 * no language of their own, so it says everything in English, then in Spanish.
 */
export function twoFactorLockedEmail(o: {
  practice: PracticeInfo;
  email: string;
  wrongCodes: number;
  consoleUrl: string;
}): { subject: string; text: string; html: string } {
  const subject = 'Two-factor sign-in locked · Acceso en dos pasos bloqueado';
  const body = renderEmail({
    lang: 'en',
    practice: o.practice,
    title: subject,
    paragraphs: [
      `Someone signed in to the Paylink console as ${o.email} with the right password and then entered ${o.wrongCodes} wrong codes from the authenticator app in 15 minutes.`,
      'Codes from the app are refused for your account now. To sign in, use one of your recovery codes, or ask an admin to reset your two-factor sign-in.',
      'If this was not you, your password is known to someone else: change it after you sign in, or ask an admin to do it.',
      `Alguien inició sesión en la consola de Paylink como ${o.email} con la contraseña correcta y después escribió ${o.wrongCodes} códigos equivocados de la aplicación de autenticación en 15 minutos.`,
      'Ahora se rechazan los códigos de la aplicación para su cuenta. Para iniciar sesión, use uno de sus códigos de recuperación o pida a un administrador que restablezca su acceso en dos pasos.',
      'Si no fue usted, otra persona conoce su contraseña: cámbiela después de iniciar sesión o pida a un administrador que lo haga.',
    ],
    action: { label: 'Open the console · Abrir la consola', url: o.consoleUrl },
  });
  return { subject, ...body };
}
