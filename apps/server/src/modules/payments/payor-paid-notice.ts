import { formatUsd, type Language } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { isOptedOut } from '../../messages/opt-outs.js';
import {
  composeEmail,
  enqueueMessage,
  smsPracticeName,
  type EmailTexts,
  type PracticeInfo,
} from '../../messages/index.js';
import type { LinkRow } from '../links/index.js';

interface PayorPaidFacts {
  practice: string;
  firstName: string;
  who: string;
  amount: string;
  date: string;
}

const PAYOR_PAID: EmailTexts<PayorPaidFacts> = {
  en: (f) => ({
    subject: `${f.practice}: your payment was made`,
    title: 'Your payment was made',
    paragraphs: [
      `Hello ${f.firstName},`,
      `${f.who} has made the payment on your ${f.practice} link.`,
      `Amount: ${f.amount}`,
      `Date: ${f.date}`,
      'There is nothing more for you to do. The person who paid received the receipt.',
    ],
  }),
  es: (f) => ({
    subject: `${f.practice}: su pago fue realizado`,
    title: 'Su pago fue realizado',
    paragraphs: [
      `Hola ${f.firstName}:`,
      `${f.who} realizó el pago de su enlace de ${f.practice}.`,
      `Monto: ${f.amount}`,
      `Fecha: ${f.date}`,
      'No tiene que hacer nada más. La persona que pagó recibió el recibo.',
    ],
  }),
};

/**
 * "Your payor paid" for the patient (issue 16, item 7), in the link's language. Like every patient SMS: no amount and
 * nothing medical, and Spanish without accents so it stays one GSM-7 segment. The e-mail names the amount and date.
 */
function payorPaidTexts(o: {
  lang: Language;
  practice: PracticeInfo;
  firstName: string;
  payorName: string | null;
  amountCents: number;
  paidAt: Date;
  timeZone?: string;
}) {
  const es = o.lang === 'es';
  const p = smsPracticeName(o.practice.name);
  const who = o.payorName?.trim() || (es ? 'La persona que paga por usted' : 'Your payor');
  const date = new Intl.DateTimeFormat(es ? 'es-US' : 'en-US', {
    dateStyle: 'long',
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
  }).format(o.paidAt);
  const amount = `${formatUsd(o.amountCents, 'en-US')} (USD)`;
  const sms = es
    ? `${p}: Hola ${o.firstName}, ${who} ya realizo el pago de su enlace. No tiene que hacer nada mas. Responda STOP para no recibir estos mensajes.`
    : `${p}: Hello ${o.firstName}, ${who} has paid for your link. There is nothing more for you to do. Reply STOP to opt out.`;
  const email = composeEmail(
    PAYOR_PAID,
    { practice: o.practice.name, firstName: o.firstName, who, amount, date },
    { lang: o.lang, practice: o.practice },
  );
  return { sms, email };
}

/**
 * Queued with the approval (same transaction): an SMS to the patient's phone and an e-mail to the patient's address,
 * each unless that address opted out; no e-mail when the patient's address is the one the receipt went to.
 */
export async function queuePayorPaidNotice(
  tx: Queryable,
  o: {
    actor: Actor;
    link: LinkRow;
    practice: PracticeInfo;
    payorName: string | null;
    receiptTo: string | null;
    amountCents: number;
    paidAt: Date;
    timeZone?: string;
  },
): Promise<void> {
  const { link } = o;
  const texts = payorPaidTexts({
    lang: link.language,
    practice: o.practice,
    firstName: link.first_name,
    payorName: o.payorName,
    amountCents: o.amountCents,
    paidAt: o.paidAt,
    timeZone: o.timeZone,
  });
  const sent: string[] = [];
  const phone = link.phone?.trim();
  if (phone && !(await isOptedOut(tx, 'sms', phone))) {
    await enqueueMessage(tx, { channel: 'sms', to: phone, text: texts.sms, linkId: link.id, kind: 'payor-paid' });
    sent.push('sms');
  }
  const email = link.email?.trim();
  const sameAsReceipt = !!o.receiptTo && email?.toLowerCase() === o.receiptTo.trim().toLowerCase();
  if (email && !sameAsReceipt && !(await isOptedOut(tx, 'email', email))) {
    await enqueueMessage(tx, { channel: 'email', to: email, ...texts.email, linkId: link.id, kind: 'payor-paid' });
    sent.push('email');
  }
  await writeAudit(tx, {
    ...o.actor,
    action: 'payment.patient_notified',
    linkId: link.id,
    details: { channels: sent, language: link.language },
  });
}
