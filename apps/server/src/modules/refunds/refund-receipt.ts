import { formatUsd, type Language } from '@paylink/shared';
import { renderEmail } from '../../messages/index.js';
import type { PracticeInfo } from '../../messages/index.js';

/** What a refund receipt says: the practice, the money, the card and the ids; nothing medical, never the reason. */
export interface RefundReceiptFacts {
  lang: Language;
  practice: PracticeInfo;
  kind: 'void' | 'return';
  amountCents: number;
  /** What remains paid after this refund. */
  remainingCents: number;
  at: Date;
  cardBrand: string | null;
  cardLast4: string | null;
  originalTransactionId: string;
  refundTransactionId: string;
  timeZone?: string;
}

const T = {
  en: {
    subject: (p: string) => `Your refund from ${p}`,
    title: 'Refund receipt',
    introReturn: (p: string, a: string) => `${p} has refunded ${a} to your card.`,
    introVoid: (p: string, a: string) =>
      `${p} has cancelled your payment of ${a} before it was processed. The charge will disappear from your statement.`,
    timing: 'Refunds usually appear on your statement within 5 to 10 business days, depending on your bank.',
    amount: 'Amount refunded',
    remaining: 'Still paid',
    date: 'Date',
    card: 'Card',
    ending: (last4: string) => `ending in ${last4}`,
    original: 'Original transaction',
    refundId: 'Refund transaction',
    keep: 'Please keep this e-mail for your records.',
    sms: (p: string, a: string, last4: string | null) =>
      `${p}: we refunded ${a} to your card${last4 ? ` ending in ${last4}` : ''}. It may take 5-10 business days to appear.`,
    locale: 'en-US',
  },
  es: {
    subject: (p: string) => `Su reembolso de ${p}`,
    title: 'Recibo de reembolso',
    introReturn: (p: string, a: string) => `${p} le ha reembolsado ${a} a su tarjeta.`,
    introVoid: (p: string, a: string) =>
      `${p} ha anulado su pago de ${a} antes de que se procesara. El cargo desaparecerá de su estado de cuenta.`,
    timing: 'Los reembolsos suelen aparecer en su estado de cuenta en un plazo de 5 a 10 días hábiles, según su banco.',
    amount: 'Monto reembolsado',
    remaining: 'Monto que sigue pagado',
    date: 'Fecha',
    card: 'Tarjeta',
    ending: (last4: string) => `terminada en ${last4}`,
    original: 'Transacción original',
    refundId: 'Transacción de reembolso',
    keep: 'Conserve este correo para sus registros.',
    sms: (p: string, a: string, last4: string | null) =>
      `${p}: le reembolsamos ${a} a su tarjeta${last4 ? ` terminada en ${last4}` : ''}. Puede tardar de 5 a 10 días hábiles en aparecer.`,
    locale: 'es-US',
  },
} as const;

export function renderRefundReceipt(f: RefundReceiptFacts): {
  subject: string;
  text: string;
  html: string;
  sms: string;
} {
  const t = T[f.lang] ?? T.en;
  const amount = formatUsd(f.amountCents, 'en-US');
  const date = new Intl.DateTimeFormat(t.locale, {
    dateStyle: 'long',
    ...(f.timeZone ? { timeZone: f.timeZone } : {}),
  }).format(f.at);
  const paragraphs = [
    f.kind === 'void' ? t.introVoid(f.practice.name, amount) : t.introReturn(f.practice.name, amount),
    `${t.amount}: ${amount} (USD)`,
    ...(f.remainingCents > 0 ? [`${t.remaining}: ${formatUsd(f.remainingCents, 'en-US')} (USD)`] : []),
    `${t.date}: ${date}`,
    ...(f.cardLast4 ? [`${t.card}: ${t.ending(f.cardLast4)}`] : []),
    `${t.original}: ${f.originalTransactionId}`,
    `${t.refundId}: ${f.refundTransactionId}`,
    ...(f.kind === 'return' ? [t.timing] : []),
    t.keep,
  ];
  const { html, text } = renderEmail({ lang: f.lang, practice: f.practice, title: t.title, paragraphs });
  return { subject: t.subject(f.practice.name), text, html, sms: t.sms(f.practice.name, amount, f.cardLast4) };
}
