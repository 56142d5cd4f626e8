import { StepRoutes, type Language } from '@paylink/shared';
import {
  composeEmail,
  renderEmail,
  smsPracticeName,
  type EmailTexts,
  type PracticeInfo,
} from '../../messages/index.js';

/**
 * What Paylink says to patients and staff. Patient texts name the practice and the coordinator and carry the personal
 * link; they say nothing medical (no procedure; no amount in SMS). Spanish SMS avoid á/í/ó/ú/ñ so a message stays in
 * the GSM-7 alphabet (160 characters a segment, not 70).
 */

const short = smsPracticeName;

export type ReminderKind = 'unopened' | 'stalled' | 'expiry';

/** The step the patient has left, in their language (SMS-safe Spanish). */
function stepSentence(route: string | null, lang: Language): string {
  const es = lang === 'es';
  switch (route) {
    case StepRoutes.invoice:
      return es ? 'Ya puede revisar y firmar su factura.' : 'Your invoice is ready to review and sign.';
    case StepRoutes.patientId:
      return es
        ? 'Falta subir una foto de su documento de identidad.'
        : 'Uploading a photo of your ID is the next step.';
    case StepRoutes.payorId:
      return es ? 'Falta subir el documento de identidad de quien paga.' : "Uploading the payor's ID is the next step.";
    case StepRoutes.contract:
      return es ? 'Su contrato ya se puede firmar.' : 'Your contract is ready to sign.';
    case StepRoutes.payment:
      return es ? 'Solo falta realizar su pago.' : 'Your payment is the last step.';
    default:
      return es ? 'Confirme sus datos para empezar.' : 'Please confirm your details to get started.';
  }
}

const STOP = { en: 'Reply STOP to opt out.', es: 'Responda STOP para no recibir estos mensajes.' };

export function linkSms(o: {
  lang: Language;
  practiceName: string;
  coordinatorName: string;
  firstName: string;
  url: string;
}): string {
  const p = short(o.practiceName);
  const who = o.coordinatorName.trim();
  if (o.lang === 'es') {
    return `${p}: Hola ${o.firstName}, ${who ? `le escribe ${who}. ` : ''}Este es su enlace personal para revisar y completar su pago: ${o.url} ${STOP.es}`;
  }
  return `${p}: Hello ${o.firstName}, ${who ? `this is ${who}. ` : ''}Here is your personal link to review and complete your payment: ${o.url} ${STOP.en}`;
}

export function reminderSms(o: {
  lang: Language;
  practiceName: string;
  firstName: string;
  step: string | null;
  kind: ReminderKind;
  expiresOn: string;
  url: string;
}): string {
  const p = short(o.practiceName);
  const step = stepSentence(o.step, o.lang);
  if (o.lang === 'es') {
    const lead = o.kind === 'unopened' ? 'Su enlace de pago le espera. ' : '';
    return `${p}: Hola ${o.firstName}, recordatorio: ${lead}${step} Su enlace vence el ${o.expiresOn}: ${o.url} ${STOP.es}`;
  }
  const lead = o.kind === 'unopened' ? 'your payment link is waiting. ' : '';
  return `${p}: Hi ${o.firstName}, a reminder: ${lead}${step} Your link expires on ${o.expiresOn}: ${o.url} ${STOP.en}`;
}

function genuineFooter(lang: Language, practice: PracticeInfo): string[] {
  const phone = practice.supportPhone;
  if (lang === 'es') {
    return [
      `Recibe este mensaje porque ${practice.name} preparó un enlace de pago personal para usted.`,
      phone
        ? `¿Duda si es auténtico? Llame a ${practice.name} al ${phone} (el número que ya conoce) antes de pagar. Nunca le pediremos los datos de su tarjeta por teléfono ni por correo.`
        : `Nunca le pediremos los datos de su tarjeta por teléfono ni por correo.`,
    ];
  }
  return [
    `You are receiving this because ${practice.name} prepared a personal payment link for you.`,
    phone
      ? `Not sure it is genuine? Call ${practice.name} at ${phone} (the number you already know) before you pay. We never ask for your card details by phone or e-mail.`
      : 'We never ask for your card details by phone or e-mail.',
  ];
}

const UNSUBSCRIBE = { en: 'Stop these e-mails', es: 'No recibir más estos correos' };

interface LinkEmailFacts {
  practice: string;
  coordinator: string;
  firstName: string;
  expiresOn: string;
}

const LINK_EMAIL: EmailTexts<LinkEmailFacts> = {
  en: (f) => ({
    subject: `Your payment link from ${f.practice}`,
    title: 'Your personal payment link',
    paragraphs: [
      `Hello ${f.firstName},`,
      `${f.coordinator ? `${f.coordinator} at ${f.practice}` : f.practice} has prepared your personal payment link. Use it to review your details, sign your documents and complete your payment securely.`,
      `The link is for you only and expires on ${f.expiresOn}.`,
    ],
    action: 'Open my payment link',
  }),
  es: (f) => ({
    subject: `Su enlace de pago de ${f.practice}`,
    title: 'Su enlace de pago personal',
    paragraphs: [
      `Hola ${f.firstName}:`,
      `${f.coordinator ? `${f.coordinator}, de ${f.practice},` : f.practice} preparó su enlace de pago personal. Con él puede revisar sus datos, firmar sus documentos y completar su pago de forma segura.`,
      `El enlace es solo para usted y vence el ${f.expiresOn}.`,
    ],
    action: 'Abrir mi enlace de pago',
  }),
};

export function linkEmail(o: {
  lang: Language;
  practice: PracticeInfo;
  coordinatorName: string;
  firstName: string;
  url: string;
  expiresOn: string;
  unsubscribeUrl: string;
}): { subject: string; text: string; html: string } {
  return composeEmail(
    LINK_EMAIL,
    {
      practice: o.practice.name,
      coordinator: o.coordinatorName.trim(),
      firstName: o.firstName,
      expiresOn: o.expiresOn,
    },
    {
      lang: o.lang,
      practice: o.practice,
      url: o.url,
      footer: genuineFooter(o.lang, o.practice),
      unsubscribe: { label: UNSUBSCRIBE[o.lang], url: o.unsubscribeUrl },
    },
  );
}

interface ReminderEmailFacts {
  practice: string;
  firstName: string;
  step: string;
  kind: ReminderKind;
  expiresOn: string;
}

const REMINDER_EMAIL: EmailTexts<ReminderEmailFacts> = {
  en: (f) => ({
    subject: `Reminder from ${f.practice}: ${f.step}`,
    title: f.step,
    paragraphs: [
      `Hello ${f.firstName},`,
      f.kind === 'unopened'
        ? `You have not opened your personal payment link from ${f.practice} yet. ${f.step}`
        : `A reminder that your personal payment link from ${f.practice} is still open. ${f.step}`,
      `The link expires on ${f.expiresOn}.`,
    ],
    action: 'Continue',
  }),
  es: (f) => ({
    subject: `Recordatorio de ${f.practice}: ${f.step}`,
    title: f.step,
    paragraphs: [
      `Hola ${f.firstName}:`,
      f.kind === 'unopened'
        ? `Aún no ha abierto su enlace de pago personal de ${f.practice}. ${f.step}`
        : `Le recordamos que su enlace de pago personal de ${f.practice} sigue pendiente. ${f.step}`,
      `El enlace vence el ${f.expiresOn}.`,
    ],
    action: 'Continuar',
  }),
};

export function reminderEmail(o: {
  lang: Language;
  practice: PracticeInfo;
  firstName: string;
  step: string | null;
  kind: ReminderKind;
  url: string;
  expiresOn: string;
  unsubscribeUrl: string;
}): { subject: string; text: string; html: string } {
  return composeEmail(
    REMINDER_EMAIL,
    {
      practice: o.practice.name,
      firstName: o.firstName,
      step: stepSentence(o.step, o.lang),
      kind: o.kind,
      expiresOn: o.expiresOn,
    },
    {
      lang: o.lang,
      practice: o.practice,
      url: o.url,
      footer: genuineFooter(o.lang, o.practice),
      unsubscribe: { label: UNSUBSCRIBE[o.lang], url: o.unsubscribeUrl },
    },
  );
}

/** Answers to keywords on the inbound SMS webhook. STOP/START confirmations come from Twilio itself for its keywords. */
export function keywordReply(kind: 'help' | 'opted-out' | 'opted-in', lang: Language, practice: PracticeInfo): string {
  const p = short(practice.name);
  const phone = practice.supportPhone ? ` ${practice.supportPhone}` : '';
  if (lang === 'es') {
    if (kind === 'help')
      return `${p}: mensajes sobre su enlace de pago. Ayuda:${phone}. Responda STOP para no recibir mas.`;
    if (kind === 'opted-out')
      return `${p}: no recibira mas mensajes de este numero. Responda START para volver a recibirlos.`;
    return `${p}: volvera a recibir mensajes sobre su enlace de pago. Responda STOP para dejar de recibirlos.`;
  }
  if (kind === 'help') return `${p}: messages about your payment link. Help:${phone}. Reply STOP to opt out.`;
  if (kind === 'opted-out') return `${p}: you will get no more messages from this number. Reply START to opt back in.`;
  return `${p}: you will receive messages about your payment link again. Reply STOP to opt out.`;
}

export function staffNotificationEmail(o: {
  kind: 'paid' | 'attention';
  practice: PracticeInfo;
  patientName: string;
  detail: string;
  consoleUrl: string;
}): { subject: string; text: string; html: string } {
  const subject =
    o.kind === 'paid' ? `Paid: ${o.patientName}'s payment link` : `Needs attention: ${o.patientName}'s payment`;
  const body = renderEmail({
    lang: 'en',
    practice: o.practice,
    title: subject,
    paragraphs: [
      o.kind === 'paid'
        ? `${o.patientName} completed the payment on their link.`
        : `A payment on ${o.patientName}'s link needs someone from the practice to look at it.`,
      o.detail,
      'You get this e-mail because of your notification settings in the Paylink console.',
    ],
    action: { label: 'Open in the console', url: o.consoleUrl },
  });
  return { subject, ...body };
}
