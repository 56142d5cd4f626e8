import type { Language } from '@paylink/shared';
import type { EmailTexts } from '../../messages/index.js';

/** The scheduler's messages to the patient: what is charged, when, to which card, and where to change it. */
export interface InstallmentFacts {
  firstName: string;
  practiceName: string;
  n: number;
  count: number;
  /** Formatted in the link's language. */
  amount: string;
  date: string;
  last4: string | null;
}

export type PlanMessageKind =
  'plan-notice' | 'plan-receipt' | 'plan-declined' | 'plan-failed' | 'plan-cancelled' | 'plan-card-expiring';

const card = (f: InstallmentFacts, lang: Language) =>
  f.last4
    ? lang === 'es'
      ? `la tarjeta que termina en ${f.last4}`
      : `the card ending in ${f.last4}`
    : lang === 'es'
      ? 'su tarjeta'
      : 'your card';

/*
 * 'plan-cancelled' (decision 0210): the confirmation the networks ask for within 3 days of a cancellation, sent at
 * once. Its facts: n = the payments cancelled, amount = their sum, date = the day of the cancellation.
 */
const cancelledEn = (f: InstallmentFacts) =>
  f.n === 1 ? `the remaining payment of ${f.amount}` : `the ${f.n} remaining payments (${f.amount} in all)`;
const cancelledEs = (f: InstallmentFacts) =>
  f.n === 1 ? `el pago pendiente de ${f.amount}` : `los ${f.n} pagos pendientes (${f.amount} en total)`;

export const PLAN_EMAILS: Record<PlanMessageKind, EmailTexts<InstallmentFacts>> = {
  'plan-notice': {
    en: (f) => ({
      subject: `Upcoming payment ${f.n} of ${f.count}: ${f.amount} on ${f.date}`,
      title: 'Your next plan payment',
      paragraphs: [
        `Hi ${f.firstName}, payment ${f.n} of ${f.count} of your plan with ${f.practiceName}, ${f.amount}, will be charged to ${card(f, 'en')} on ${f.date}.`,
        'To use another card, open your link before that date.',
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Próximo pago ${f.n} de ${f.count}: ${f.amount} el ${f.date}`,
      title: 'Su próximo pago del plan',
      paragraphs: [
        `Hola ${f.firstName}, el pago ${f.n} de ${f.count} de su plan con ${f.practiceName}, ${f.amount}, se cobrará a ${card(f, 'es')} el ${f.date}.`,
        'Para usar otra tarjeta, abra su enlace antes de esa fecha.',
      ],
      action: 'Ver mi plan',
    }),
  },
  'plan-receipt': {
    en: (f) => ({
      subject: `Receipt: plan payment ${f.n} of ${f.count}, ${f.amount}`,
      title: 'Payment received',
      paragraphs: [
        `Hi ${f.firstName}, we charged ${f.amount} to ${card(f, 'en')} on ${f.date}: payment ${f.n} of ${f.count} of your plan with ${f.practiceName}.`,
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Recibo: pago ${f.n} de ${f.count} del plan, ${f.amount}`,
      title: 'Pago recibido',
      paragraphs: [
        `Hola ${f.firstName}, cobramos ${f.amount} a ${card(f, 'es')} el ${f.date}: pago ${f.n} de ${f.count} de su plan con ${f.practiceName}.`,
      ],
      action: 'Ver mi plan',
    }),
  },
  'plan-declined': {
    en: (f) => ({
      subject: `Your plan payment of ${f.amount} was declined`,
      title: 'Payment declined',
      paragraphs: [
        `Hi ${f.firstName}, payment ${f.n} of ${f.count} (${f.amount}) to ${card(f, 'en')} was declined. We will try again on ${f.date}.`,
        'To use another card now, open the link below, sign in and enter it: we will then charge it instead.',
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `Su pago del plan de ${f.amount} fue rechazado`,
      title: 'Pago rechazado',
      paragraphs: [
        `Hola ${f.firstName}, el pago ${f.n} de ${f.count} (${f.amount}) a ${card(f, 'es')} fue rechazado. Lo intentaremos de nuevo el ${f.date}.`,
        'Para usar otra tarjeta ahora, abra el enlace de abajo, inicie sesión e ingrésela: entonces la cobraremos a ella.',
      ],
      action: 'Actualizar mi tarjeta',
    }),
  },
  'plan-failed': {
    en: (f) => ({
      subject: `Your plan payment of ${f.amount} could not be charged`,
      title: 'Payment not made',
      paragraphs: [
        `Hi ${f.firstName}, payment ${f.n} of ${f.count} (${f.amount}) to ${card(f, 'en')} was declined again, and we will not try it again. ${f.practiceName} will contact you.`,
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `No se pudo cobrar su pago del plan de ${f.amount}`,
      title: 'Pago no realizado',
      paragraphs: [
        `Hola ${f.firstName}, el pago ${f.n} de ${f.count} (${f.amount}) a ${card(f, 'es')} fue rechazado de nuevo y no lo intentaremos otra vez. ${f.practiceName} se comunicará con usted.`,
      ],
      action: 'Ver mi plan',
    }),
  },
  'plan-cancelled': {
    en: (f) => ({
      subject: `Your payment plan with ${f.practiceName} is cancelled`,
      title: 'Payment plan cancelled',
      paragraphs: [
        `Hi ${f.firstName}, on ${f.date} ${f.practiceName} cancelled your payment plan: ${cancelledEn(f)} will not be charged to ${card(f, 'en')}.`,
        'Payments already made are not changed. If you did not expect this, contact the practice.',
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Su plan de pagos con ${f.practiceName} fue cancelado`,
      title: 'Plan de pagos cancelado',
      paragraphs: [
        `Hola ${f.firstName}, el ${f.date} ${f.practiceName} canceló su plan de pagos: ${cancelledEs(f)} no se cobrará a ${card(f, 'es')}.`,
        'Los pagos ya hechos no cambian. Si no lo esperaba, comuníquese con la práctica.',
      ],
      action: 'Ver mi plan',
    }),
  },
  'plan-card-expiring': {
    en: (f) => ({
      subject: `Your card expires before your plan payment of ${f.amount}`,
      title: 'Please update your card',
      paragraphs: [
        `Hi ${f.firstName}, ${card(f, 'en')} expires before payment ${f.n} of ${f.count} (${f.amount}) of your plan with ${f.practiceName}, due on ${f.date}.`,
        'Open the link below, sign in and enter your new card so the payment can go through.',
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `Su tarjeta vence antes de su pago del plan de ${f.amount}`,
      title: 'Actualice su tarjeta',
      paragraphs: [
        `Hola ${f.firstName}, ${card(f, 'es')} vence antes del pago ${f.n} de ${f.count} (${f.amount}) de su plan con ${f.practiceName}, previsto para el ${f.date}.`,
        'Abra el enlace de abajo, inicie sesión e ingrese su nueva tarjeta para que el pago se pueda realizar.',
      ],
      action: 'Actualizar mi tarjeta',
    }),
  },
};

const SMS: Record<PlanMessageKind, Record<Language, (f: InstallmentFacts, url: string) => string>> = {
  'plan-notice': {
    en: (f, url) =>
      `${f.practiceName}: payment ${f.n}/${f.count} of ${f.amount} will be charged to ${card(f, 'en')} on ${f.date}. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: el pago ${f.n}/${f.count} de ${f.amount} se cobrará a ${card(f, 'es')} el ${f.date}. ${url}`,
  },
  'plan-receipt': {
    en: (f, url) => `${f.practiceName}: received ${f.amount}, plan payment ${f.n}/${f.count}, on ${f.date}. ${url}`,
    es: (f, url) => `${f.practiceName}: recibimos ${f.amount}, pago ${f.n}/${f.count} del plan, el ${f.date}. ${url}`,
  },
  'plan-declined': {
    en: (f, url) =>
      `${f.practiceName}: plan payment ${f.n}/${f.count} of ${f.amount} was declined. Next try ${f.date}. Update your card: ${url}`,
    es: (f, url) =>
      `${f.practiceName}: el pago ${f.n}/${f.count} de ${f.amount} fue rechazado. Próximo intento el ${f.date}. Actualice su tarjeta: ${url}`,
  },
  'plan-failed': {
    en: (f, url) =>
      `${f.practiceName}: plan payment ${f.n}/${f.count} of ${f.amount} was declined again; no more tries. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: el pago ${f.n}/${f.count} de ${f.amount} fue rechazado de nuevo; no habrá más intentos. ${url}`,
  },
  'plan-cancelled': {
    en: (f, url) =>
      `${f.practiceName}: your payment plan is cancelled; ${cancelledEn(f)} will not be charged to ${card(f, 'en')}. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: su plan de pagos fue cancelado; ${cancelledEs(f)} no se cobrará a ${card(f, 'es')}. ${url}`,
  },
  'plan-card-expiring': {
    en: (f, url) =>
      `${f.practiceName}: ${card(f, 'en')} expires before plan payment ${f.n}/${f.count} of ${f.amount} on ${f.date}. Update your card: ${url}`,
    es: (f, url) =>
      `${f.practiceName}: ${card(f, 'es')} vence antes del pago ${f.n}/${f.count} de ${f.amount} del ${f.date}. Actualice su tarjeta: ${url}`,
  },
};

export function planSms(kind: PlanMessageKind, lang: Language, f: InstallmentFacts, url: string): string {
  return (SMS[kind][lang] ?? SMS[kind].en)(f, url);
}
