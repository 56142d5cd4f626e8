import { cardBrandName, formatUsd, planScheduleLine, type Language } from '@paylink/shared';
import type { PlanReceiptTerms } from '../../context.js';
import { renderEmail } from '../../messages/index.js';
import type { PracticeInfo } from '../../messages/index.js';

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
  /** A plan link's deposit: the balance's schedule and the card-on-file agreement as accepted (issue 28). */
  plan?: PlanReceiptTerms | null;
}

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
    schedule: 'The balance will be charged to the same card on this schedule:',
    agreement: (title: string, version: string) => `${title} (version ${version}), as you accepted it:`,
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
    schedule: 'El saldo se cobrará en la misma tarjeta según este calendario:',
    agreement: (title: string, version: string) => `${title} (versión ${version}), tal como la aceptó:`,
  },
} as const;

export function renderReceipt(f: ReceiptFacts): { subject: string; text: string; html: string } {
  const t = T[f.lang] ?? T.en;
  const brand = cardBrandName(f.cardBrand) || t.cardWord;
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
    ...planParagraphs(f.plan, t),
    t.keep,
  ];
  const { html, text } = renderEmail({ lang: f.lang, practice: f.practice, title: t.title, paragraphs });
  return { subject: t.subject(f.practice.name), text, html };
}

function planParagraphs(plan: PlanReceiptTerms | null | undefined, t: (typeof T)[Language]): string[] {
  if (!plan) return [];
  const out: string[] = [];
  if (plan.installments.length) {
    out.push(t.schedule, ...plan.installments.map((i) => planScheduleLine(i, t.locale)));
  }
  if (plan.agreement) out.push(t.agreement(plan.agreement.title, plan.agreement.version), ...plan.agreement.paragraphs);
  return out;
}

const SMS = {
  en: (f: SmsReceiptFacts) =>
    `${f.practice}: payment of ${f.amount} received${f.last4 ? ` (card ending ${f.last4})` : ''}. ` +
    `Transaction ${f.transactionId}. Keep this text as your receipt.` +
    (f.balance
      ? ` Balance: ${f.balance.count} charge${f.balance.count === 1 ? '' : 's'} from ${f.balance.from}; see your link.`
      : '') +
    (f.url ? ` ${f.url}` : ''),
  es: (f: SmsReceiptFacts) =>
    `${f.practice}: recibimos su pago de ${f.amount}${f.last4 ? ` (tarjeta terminada en ${f.last4})` : ''}. ` +
    `Transaccion ${f.transactionId}. Conserve este mensaje como recibo.` +
    (f.balance
      ? ` Saldo: ${f.balance.count} cobro${f.balance.count === 1 ? '' : 's'} desde el ${f.balance.from}; vea su enlace.`
      : '') +
    (f.url ? ` ${f.url}` : ''),
} as const;

interface SmsReceiptFacts {
  practice: string;
  amount: string;
  last4: string | null;
  transactionId: string;
  /** A plan's balance: how many charges and the first one's date. */
  balance: { count: number; from: string } | null;
  /** The patient's link (their plan, their receipt again). */
  url?: string;
}

/** "Jan 15, 2027" / "15 ene 2027" without accents (GSM-7): the SMS receipt's first charge date. */
function smsDate(dueOn: string, lang: Language): string {
  const d = new Date(`${dueOn}T00:00:00Z`);
  const s = d.toLocaleDateString(lang === 'es' ? 'es-US' : 'en-US', { dateStyle: 'medium', timeZone: 'UTC' });
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\./g, '');
}

/**
 * The receipt by SMS, for a patient with no e-mail address (issue 10 item 7): short, the money and the transaction
 * only — nothing medical, no name; Spanish without accents (GSM-7). The practice name is cut to keep it short. A plan's
 * deposit adds one line on the balance's charges; the schedule itself is on the patient's link.
 */
export function renderSmsReceipt(
  f: Pick<ReceiptFacts, 'lang' | 'practice' | 'amountCents' | 'cardLast4' | 'transactionId' | 'plan'> & {
    url?: string;
  },
): string {
  const first = f.plan?.installments[0];
  return (SMS[f.lang] ?? SMS.en)({
    practice: f.practice.name.slice(0, 40),
    amount: formatUsd(f.amountCents, 'en-US'),
    last4: f.cardLast4,
    transactionId: f.transactionId,
    balance: first ? { count: f.plan!.installments.length, from: smsDate(first.dueOn, f.lang) } : null,
    url: f.url,
  });
}

/** An address shown back to the patient: j***@example.com, (***) ***-1234. */
export function maskReceiptAddress(channel: 'email' | 'sms', address: string): string {
  if (channel === 'sms') {
    const digits = address.replace(/\D+/g, '');
    return digits.length >= 4 ? `***-***-${digits.slice(-4)}` : '****';
  }
  const [user, domain] = address.split('@');
  return `${(user ?? '').slice(0, 1)}***@${domain ?? ''}`;
}
