import { formatUsd, type Language } from '@paylink/shared';
import { renderEmail } from '../outbox/email-layout.js';
import type { PracticeInfo } from '../outbox/practice-info.js';

/** What a receipt says: the practice, the money and the card; nothing medical (no procedure, no patient details). */
export interface ReceiptFacts {
  lang: Language;
  practice: PracticeInfo;
  amountCents: number;
  paidAt: Date;
  cardBrand: string | null;
  cardLast4: string | null;
  transactionId: string;
  approvalCode: string;
  paidBy?: string | null;
  timeZone?: string;
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
};

const T = {
  en: {
    subject: (p: string) => `Your payment receipt from ${p}`,
    title: 'Payment receipt',
    intro: (p: string) => `Thank you. ${p} has received your payment.`,
    amount: 'Amount',
    date: 'Date',
    card: 'Card',
    ending: (brand: string, last4: string) => `${brand} ending in ${last4}`,
    paidBy: 'Name on card',
    txn: 'Transaction ID',
    approval: 'Approval code',
    keep: 'Please keep this e-mail for your records.',
    locale: 'en-US',
    cardWord: 'Card',
  },
  es: {
    subject: (p: string) => `Su recibo de pago de ${p}`,
    title: 'Recibo de pago',
    intro: (p: string) => `Gracias. ${p} ha recibido su pago.`,
    amount: 'Monto',
    date: 'Fecha',
    card: 'Tarjeta',
    ending: (brand: string, last4: string) => `${brand} terminada en ${last4}`,
    paidBy: 'Nombre en la tarjeta',
    txn: 'ID de transacción',
    approval: 'Código de aprobación',
    keep: 'Conserve este correo para sus registros.',
    locale: 'es-US',
    cardWord: 'Tarjeta',
  },
} as const;

export function renderReceipt(f: ReceiptFacts): { subject: string; text: string; html: string } {
  const t = T[f.lang] ?? T.en;
  const brand = f.cardBrand ? (BRAND_NAMES[f.cardBrand] ?? f.cardBrand.toUpperCase()) : t.cardWord;
  const date = new Intl.DateTimeFormat(t.locale, {
    dateStyle: 'long',
    ...(f.timeZone ? { timeZone: f.timeZone } : {}),
  }).format(f.paidAt);
  const paragraphs = [
    t.intro(f.practice.name),
    `${t.amount}: ${formatUsd(f.amountCents, 'en-US')} (USD)`,
    `${t.date}: ${date}`,
    `${t.card}: ${f.cardLast4 ? t.ending(brand, f.cardLast4) : brand}`,
    ...(f.paidBy ? [`${t.paidBy}: ${f.paidBy}`] : []),
    `${t.txn}: ${f.transactionId}`,
    `${t.approval}: ${f.approvalCode}`,
    t.keep,
  ];
  const { html, text } = renderEmail({ lang: f.lang, practice: f.practice, title: t.title, paragraphs });
  return { subject: t.subject(f.practice.name), text, html };
}
