import type { Language } from '@paylink/shared';
import type { EmailTexts } from '../../messages/index.js';

/** The scheduler's messages to the patient: what is charged, when, to which card, and where to change it. */
export interface InstallmentFacts {
  firstName: string;
  practiceName: string;
  /** The practice's phone, for the next step when nothing more is tried (empty when unknown). */
  practicePhone?: string;
  n: number;
  count: number;
  /** Formatted in the link's language. */
  amount: string;
  date: string;
  last4: string | null;
  /** The card's brand as people write it ("Visa", "Mastercard"), or null when unknown. */
  brand?: string | null;
  /** A receipt's: the gateway's transaction id and approval code. */
  txnId?: string | null;
  approvalCode?: string | null;
  /** A receipt's: what remains of the plan after this payment (none: count 0). */
  remaining?: { count: number; amount: string; nextDate: string | null };
  /** The plan's total (the deposit and every charge), formatted: the paid-in-full message. */
  planTotal?: string;
}

export type PlanMessageKind =
  | 'plan-notice'
  | 'plan-notice-card-expired'
  | 'plan-receipt'
  | 'plan-completed'
  | 'plan-declined'
  | 'plan-failed'
  | 'plan-cancelled'
  | 'plan-card-expiring';

const card = (f: InstallmentFacts, lang: Language) => {
  const brand = f.brand ?? null;
  if (!f.last4) return lang === 'es' ? 'su tarjeta' : 'your card';
  if (lang === 'es')
    return brand ? `la tarjeta ${brand} que termina en ${f.last4}` : `la tarjeta que termina en ${f.last4}`;
  return brand ? `the ${brand} card ending in ${f.last4}` : `the card ending in ${f.last4}`;
};

/** Which payment: a single balance is "the balance payment", not "payment 1 of 1". */
const which = (f: InstallmentFacts, lang: Language) =>
  f.count === 1
    ? lang === 'es'
      ? 'el pago del saldo'
      : 'the balance payment'
    : lang === 'es'
      ? `el pago ${f.n} de ${f.count}`
      : `payment ${f.n} of ${f.count}`;
/** The same, short, for a text message. */
const whichSms = (f: InstallmentFacts, lang: Language) =>
  f.count === 1
    ? lang === 'es'
      ? 'el pago del saldo'
      : 'the balance payment'
    : lang === 'es'
      ? `el pago ${f.n}/${f.count}`
      : `plan payment ${f.n}/${f.count}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What happens when the card on file cannot be charged: the retries, then the practice. */
const otherwiseEn = (f: InstallmentFacts) =>
  `If you do not, we will still try ${card(f, 'en')} on ${f.date}; if it is declined we try again 1, 3 and 7 days later, and then ${f.practiceName} will contact you.`;
const otherwiseEs = (f: InstallmentFacts) =>
  `Si no lo hace, intentaremos cobrar ${card(f, 'es')} el ${f.date}; si la rechazan, lo intentaremos de nuevo 1, 3 y 7 días después y luego ${f.practiceName} se comunicará con usted.`;

/** The last decline's next step: a new card, then the practice charges it. */
const failedNextEn = (f: InstallmentFacts) =>
  `To pay it, enter a new card with the link below, then call ${f.practiceName}${f.practicePhone ? ` at ${f.practicePhone}` : ''}: they will charge it.`;
const failedNextEs = (f: InstallmentFacts) =>
  `Para pagarlo, ingrese una nueva tarjeta con el enlace de abajo y llame a ${f.practiceName}${f.practicePhone ? ` al ${f.practicePhone}` : ''}: ellos la cobrarán.`;

const remainingEn = (f: InstallmentFacts) =>
  !f.remaining || f.remaining.count === 0
    ? 'Nothing remains to be paid on your plan.'
    : `Still to pay: ${f.remaining.amount} in ${f.remaining.count === 1 ? '1 payment' : `${f.remaining.count} payments`}${f.remaining.nextDate ? `, the next on ${f.remaining.nextDate}` : ''}.`;
const remainingEs = (f: InstallmentFacts) =>
  !f.remaining || f.remaining.count === 0
    ? 'No queda nada por pagar en su plan.'
    : `Queda por pagar: ${f.remaining.amount} en ${f.remaining.count === 1 ? '1 pago' : `${f.remaining.count} pagos`}${f.remaining.nextDate ? `, el próximo el ${f.remaining.nextDate}` : ''}.`;
const receiptIds = (f: InstallmentFacts, lang: Language) =>
  [
    f.txnId ? (lang === 'es' ? `Transacción: ${f.txnId}` : `Transaction: ${f.txnId}`) : null,
    f.approvalCode
      ? lang === 'es'
        ? `Código de aprobación: ${f.approvalCode}`
        : `Approval code: ${f.approvalCode}`
      : null,
  ]
    .filter(Boolean)
    .join(' · ');

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
      subject: `Upcoming ${f.count === 1 ? 'balance payment' : `payment ${f.n} of ${f.count}`}: ${f.amount} on ${f.date}`,
      title: 'Your next plan payment',
      paragraphs: [
        `Hi ${f.firstName}, ${which(f, 'en')} of your plan with ${f.practiceName}, ${f.amount}, will be charged to ${card(f, 'en')} on ${f.date}.`,
        'To use another card, open your link before that date.',
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Próximo ${f.count === 1 ? 'pago del saldo' : `pago ${f.n} de ${f.count}`}: ${f.amount} el ${f.date}`,
      title: 'Su próximo pago del plan',
      paragraphs: [
        `Hola ${f.firstName}, ${which(f, 'es')} de su plan con ${f.practiceName}, ${f.amount}, se cobrará a ${card(f, 'es')} el ${f.date}.`,
        'Para usar otra tarjeta, abra su enlace antes de esa fecha.',
      ],
      action: 'Ver mi plan',
    }),
  },
  // The notice when the card on file will have expired by the charge's date (decision 0246): no promise to charge it.
  'plan-notice-card-expired': {
    en: (f) => ({
      subject: `Please update your card before ${f.date}`,
      title: 'Your card on file has expired',
      paragraphs: [
        `Hi ${f.firstName}, ${which(f, 'en')} of your plan with ${f.practiceName}, ${f.amount}, is due on ${f.date}, but ${card(f, 'en')} will have expired by then.`,
        'Open the link below, sign in and enter your new card before that date: we will charge it instead.',
        otherwiseEn(f),
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `Actualice su tarjeta antes del ${f.date}`,
      title: 'Su tarjeta registrada está vencida',
      paragraphs: [
        `Hola ${f.firstName}, ${which(f, 'es')} de su plan con ${f.practiceName}, ${f.amount}, vence el ${f.date}, pero ${card(f, 'es')} ya estará vencida para entonces.`,
        'Abra el enlace de abajo, inicie sesión e ingrese su nueva tarjeta antes de esa fecha: la cobraremos a ella.',
        otherwiseEs(f),
      ],
      action: 'Actualizar mi tarjeta',
    }),
  },
  'plan-receipt': {
    en: (f) => ({
      subject: `Receipt: ${f.count === 1 ? 'balance payment' : `plan payment ${f.n} of ${f.count}`}, ${f.amount}`,
      title: 'Payment received',
      paragraphs: [
        `Hi ${f.firstName}, we charged ${f.amount} to ${card(f, 'en')} on ${f.date}: ${which(f, 'en')} of your plan with ${f.practiceName}.`,
        ...(receiptIds(f, 'en') ? [receiptIds(f, 'en')] : []),
        remainingEn(f),
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Recibo: ${f.count === 1 ? 'pago del saldo' : `pago ${f.n} de ${f.count} del plan`}, ${f.amount}`,
      title: 'Pago recibido',
      paragraphs: [
        `Hola ${f.firstName}, cobramos ${f.amount} a ${card(f, 'es')} el ${f.date}: ${which(f, 'es')} de su plan con ${f.practiceName}.`,
        ...(receiptIds(f, 'es') ? [receiptIds(f, 'es')] : []),
        remainingEs(f),
      ],
      action: 'Ver mi plan',
    }),
  },
  // Facts: amount = the plan's total paid, date = the day of the last payment.
  'plan-completed': {
    en: (f) => ({
      subject: `Your payment plan with ${f.practiceName} is paid in full`,
      title: 'Plan paid in full',
      paragraphs: [
        `Hi ${f.firstName}, your payment plan with ${f.practiceName} is paid in full: ${f.planTotal ?? f.amount} in all, the last payment on ${f.date}.`,
        `Nothing more will be charged to ${card(f, 'en')} for this plan. Thank you.`,
      ],
      action: 'View my plan',
    }),
    es: (f) => ({
      subject: `Su plan de pagos con ${f.practiceName} está pagado por completo`,
      title: 'Plan pagado por completo',
      paragraphs: [
        `Hola ${f.firstName}, su plan de pagos con ${f.practiceName} está pagado por completo: ${f.planTotal ?? f.amount} en total, el último pago el ${f.date}.`,
        `No se cobrará nada más a ${card(f, 'es')} por este plan. Gracias.`,
      ],
      action: 'Ver mi plan',
    }),
  },
  'plan-declined': {
    en: (f) => ({
      subject: `Your plan payment of ${f.amount} was declined`,
      title: 'Payment declined',
      paragraphs: [
        `Hi ${f.firstName}, ${which(f, 'en')} (${f.amount}) to ${card(f, 'en')} was declined. We will try again on ${f.date}.`,
        'To use another card now, open the link below, sign in and enter it: we will then charge it instead.',
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `Su pago del plan de ${f.amount} fue rechazado`,
      title: 'Pago rechazado',
      paragraphs: [
        `Hola ${f.firstName}, ${which(f, 'es')} (${f.amount}) a ${card(f, 'es')} fue rechazado. Lo intentaremos de nuevo el ${f.date}.`,
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
        `Hi ${f.firstName}, ${which(f, 'en')} (${f.amount}) to ${card(f, 'en')} was declined again, and we will not try it again automatically.`,
        failedNextEn(f),
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `No se pudo cobrar su pago del plan de ${f.amount}`,
      title: 'Pago no realizado',
      paragraphs: [
        `Hola ${f.firstName}, ${which(f, 'es')} (${f.amount}) a ${card(f, 'es')} fue rechazado de nuevo y no lo intentaremos otra vez automáticamente.`,
        failedNextEs(f),
      ],
      action: 'Actualizar mi tarjeta',
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
        `Hi ${f.firstName}, ${card(f, 'en')} expires before ${which(f, 'en')} (${f.amount}) of your plan with ${f.practiceName}, due on ${f.date}.`,
        'Open the link below, sign in and enter your new card so the payment can go through.',
      ],
      action: 'Update my card',
    }),
    es: (f) => ({
      subject: `Su tarjeta vence antes de su pago del plan de ${f.amount}`,
      title: 'Actualice su tarjeta',
      paragraphs: [
        `Hola ${f.firstName}, ${card(f, 'es')} vence antes de${which(f, 'es').slice(1)} (${f.amount}) de su plan con ${f.practiceName}, previsto para el ${f.date}.`,
        'Abra el enlace de abajo, inicie sesión e ingrese su nueva tarjeta para que el pago se pueda realizar.',
      ],
      action: 'Actualizar mi tarjeta',
    }),
  },
};

const SMS: Record<PlanMessageKind, Record<Language, (f: InstallmentFacts, url: string) => string>> = {
  'plan-notice': {
    en: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'en')} of ${f.amount} will be charged to ${card(f, 'en')} on ${f.date}. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'es')} de ${f.amount} se cobrará a ${card(f, 'es')} el ${f.date}. ${url}`,
  },
  'plan-notice-card-expired': {
    en: (f, url) =>
      `${f.practiceName}: ${cap(card(f, 'en'))} will have expired by ${f.date}, when ${whichSms(f, 'en')} of ${f.amount} is due. Enter a new card before then: ${url} If not, we try the old card and then ${f.practiceName} contacts you.`,
    es: (f, url) =>
      `${f.practiceName}: ${cap(card(f, 'es'))} estará vencida el ${f.date}, cuando vence ${whichSms(f, 'es')} de ${f.amount}. Ingrese una nueva tarjeta antes: ${url} Si no, intentaremos la anterior y luego ${f.practiceName} se comunicará con usted.`,
  },
  'plan-receipt': {
    en: (f, url) => `${f.practiceName}: received ${f.amount}, ${whichSms(f, 'en')}, on ${f.date}. ${url}`,
    es: (f, url) => `${f.practiceName}: recibimos ${f.amount}, ${whichSms(f, 'es')}, el ${f.date}. ${url}`,
  },
  'plan-completed': {
    en: (f, url) =>
      `${f.practiceName}: your payment plan is paid in full (${f.planTotal ?? f.amount}). Nothing more will be charged. Thank you. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: su plan de pagos está pagado por completo (${f.planTotal ?? f.amount}). No se cobrará nada más. Gracias. ${url}`,
  },
  'plan-declined': {
    en: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'en')} of ${f.amount} was declined. Next try ${f.date}. Update your card: ${url}`,
    es: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'es')} de ${f.amount} fue rechazado. Próximo intento el ${f.date}. Actualice su tarjeta: ${url}`,
  },
  'plan-failed': {
    en: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'en')} of ${f.amount} was declined again; no more automatic tries. Enter a new card: ${url} then call ${f.practicePhone || f.practiceName} to have it charged.`,
    es: (f, url) =>
      `${f.practiceName}: ${whichSms(f, 'es')} de ${f.amount} fue rechazado de nuevo; no habrá más intentos automáticos. Ingrese una nueva tarjeta: ${url} y llame al ${f.practicePhone || f.practiceName} para que la cobren.`,
  },
  'plan-cancelled': {
    en: (f, url) =>
      `${f.practiceName}: your payment plan is cancelled; ${cancelledEn(f)} will not be charged to ${card(f, 'en')}. ${url}`,
    es: (f, url) =>
      `${f.practiceName}: su plan de pagos fue cancelado; ${cancelledEs(f)} no se cobrará a ${card(f, 'es')}. ${url}`,
  },
  'plan-card-expiring': {
    en: (f, url) =>
      `${f.practiceName}: ${card(f, 'en')} expires before ${whichSms(f, 'en')} of ${f.amount} on ${f.date}. Update your card: ${url}`,
    es: (f, url) =>
      `${f.practiceName}: ${card(f, 'es')} vence antes de${whichSms(f, 'es').slice(1)} de ${f.amount} del ${f.date}. Actualice su tarjeta: ${url}`,
  },
};

export function planSms(kind: PlanMessageKind, lang: Language, f: InstallmentFacts, url: string): string {
  return (SMS[kind][lang] ?? SMS[kind].en)(f, url);
}
