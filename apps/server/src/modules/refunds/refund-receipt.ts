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
  /**
   * Set when what is given back is a second approved charge of a plan instalment (reconciliation flagged it; decision
   * 0237): the receipt names that instalment and says its own charge stays paid (`remainingCents` is that one's).
   */
  duplicateOf?: { n: number; count: number };
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
    // A single balance is "your balance payment", never "installment 1 of 1".
    which: (n: number, count: number) => (count > 1 ? `installment ${n} of ${count}` : 'your balance payment'),
    Which: (n: number, count: number) => (count > 1 ? `Installment ${n} of ${count}` : 'Your balance payment'),
    introDuplicate: (p: string, a: string, w: string, kind: 'void' | 'return') =>
      `Your card was charged twice for ${w} of your payment plan with ${p}. The second charge, ${a}, has been ` +
      (kind === 'void'
        ? 'cancelled in full before it was processed; it will disappear from your statement.'
        : 'refunded in full to your card.'),
    stillPaid: (w: string, a: string) => `${w} stays paid: ${a} (USD)`,
    smsDuplicate: (p: string, a: string, w: string, last4: string | null) =>
      `${p}: your card${last4 ? ` ending in ${last4}` : ''} was charged twice for ${w} of your payment plan. We gave the second charge, ${a}, back in full; ${w} stays paid.`,
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
    which: (n: number, count: number) => (count > 1 ? `la cuota ${n} de ${count}` : 'el pago de su saldo'),
    Which: (n: number, count: number) => (count > 1 ? `La cuota ${n} de ${count}` : 'El pago de su saldo'),
    introDuplicate: (p: string, a: string, w: string, kind: 'void' | 'return') =>
      `Se cobró dos veces a su tarjeta ${w} de su plan de pagos con ${p}. El segundo cargo, de ${a}, ` +
      (kind === 'void'
        ? 'se anuló por completo antes de procesarse; desaparecerá de su estado de cuenta.'
        : 'se le reembolsó por completo a su tarjeta.'),
    stillPaid: (w: string, a: string) => `${w} sigue ${w.startsWith('La') ? 'pagada' : 'pagado'}: ${a} (USD)`,
    smsDuplicate: (p: string, a: string, w: string, last4: string | null) =>
      `${p}: se cobró dos veces a su tarjeta${last4 ? ` terminada en ${last4}` : ''} ${w} de su plan de pagos. Le devolvimos por completo el segundo cargo, de ${a}; ${w} sigue ${w.startsWith('la') ? 'pagada' : 'pagado'}.`,
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
  const dup = f.duplicateOf;
  const remaining = formatUsd(f.remainingCents, 'en-US');
  const paragraphs = [
    dup
      ? t.introDuplicate(f.practice.name, amount, t.which(dup.n, dup.count), f.kind)
      : f.kind === 'void'
        ? t.introVoid(f.practice.name, amount)
        : t.introReturn(f.practice.name, amount),
    `${t.amount}: ${amount} (USD)`,
    ...(dup && f.remainingCents > 0
      ? [t.stillPaid(t.Which(dup.n, dup.count), remaining)]
      : f.remainingCents > 0
        ? [`${t.remaining}: ${remaining} (USD)`]
        : []),
    `${t.date}: ${date}`,
    ...(f.cardLast4 ? [`${t.card}: ${t.ending(f.cardLast4)}`] : []),
    `${t.original}: ${f.originalTransactionId}`,
    `${t.refundId}: ${f.refundTransactionId}`,
    ...(f.kind === 'return' ? [t.timing] : []),
    t.keep,
  ];
  const { html, text } = renderEmail({ lang: f.lang, practice: f.practice, title: t.title, paragraphs });
  const sms = dup
    ? t.smsDuplicate(f.practice.name, amount, t.which(dup.n, dup.count), f.cardLast4)
    : t.sms(f.practice.name, amount, f.cardLast4);
  return { subject: t.subject(f.practice.name), text, html, sms };
}
