import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLAN_NOTICE_DAYS, planSchedule, planScheduleLine } from '@paylink/shared';
import { PDFDocument } from 'pdf-lib';
import type { Queryable } from '../../db/client.js';
import type { LinkRow } from '../links/index.js';
import { ownBytes, PdfWriter } from './pdf-writer.js';
import { formatDate, formatUsd, TEXTS, type Lang } from './sign-texts.js';
import {
  practiceForDocuments,
  type DocumentPlan,
  type PaymentChoice,
  type PracticeRow,
  type SubmissionFileRow,
  type SubmissionRow,
} from './submission-queries.js';

export const ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets');
export const SAMPLE_CONTRACT = path.join(ASSETS_DIR, 'sample-contract.pdf');
export const SAMPLE_CONTRACT_ES = path.join(ASSETS_DIR, 'sample-contract-es.pdf');

/** Everything a document is generated from; read in the request's transaction. */
export interface DocumentData {
  submission: SubmissionRow;
  link: LinkRow;
  practice: PracticeRow;
  payment: PaymentChoice | null;
  /** The link's payment plan, for the invoice (issue 41, item 5); null without one. */
  plan: DocumentPlan | null;
}

/** `payment`: the link's choice, read with the submission (readSubmission's `payment`); the practice is kept per process. */
export async function loadDocumentData(
  q: Queryable,
  {
    submission,
    link,
    payment,
    plan,
  }: { submission: SubmissionRow; link: LinkRow; payment: PaymentChoice | null; plan?: DocumentPlan | null },
): Promise<DocumentData> {
  const practice = await practiceForDocuments(q);
  return {
    submission,
    link,
    practice: practice ?? { name: 'Paylink', support_phone: '', support_email: '' },
    payment,
    plan: submission.kind === 'invoice' ? (plan ?? null) : null,
  };
}

const patientName = (l: LinkRow) => `${l.first_name} ${l.last_name}`.trim();
const payorName = (l: LinkRow) => l.payor_name?.trim() || '';

/** Who signs (or uploads) a submission by default: the payor for the payor's documents, else the patient. */
export function expectedSigner(d: DocumentData): string {
  const k = d.submission.kind;
  if (k === 'payor_id' || k === 'payment_authorization') return payorName(d.link);
  return patientName(d.link);
}

/** A name's words for comparing people: no accents, no case, no punctuation ("María P. López" → maria p lopez). */
function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Whether a name someone signed with is this document's signer: every word of the name on file is in it ("María P.
 * López" signs for "Maria Lopez"; "José García" does not). A typed signature is only offered again to the person it
 * belongs to (issue 29, item 12): on a shared phone, another person may have signed the earlier document.
 */
export function signsAs(expected: string, signedName: string): boolean {
  const want = nameWords(expected);
  const have = new Set(nameWords(signedName));
  return want.length > 0 && want.every((w) => have.has(w));
}

/** The documents one person signs: the payor's, or the patient's (a typed signature is only offered within one). */
export function sameSignerKinds(kind: SubmissionRow['kind']): readonly SubmissionRow['kind'][] {
  return kind === 'payor_id' || kind === 'payment_authorization'
    ? ['payor_id', 'payment_authorization']
    : ['invoice', 'contract', 'patient_id'];
}

export function invoiceModel(d: DocumentData, lang: Lang) {
  const t = TEXTS[lang];
  const l = d.link;
  return {
    number: `INV-${d.submission.id.slice(0, 8).toUpperCase()}`,
    date: formatDate(new Date(d.submission.created_at), lang),
    practice: [d.practice.name, d.practice.support_phone, d.practice.support_email].filter(Boolean),
    billTo: [
      patientName(l),
      l.address,
      [l.city, [l.state, l.zip_code].filter(Boolean).join(' ')].filter(Boolean).join(', '),
      l.email,
    ].filter(Boolean),
    description: l.procedure_description.trim() || t.procedureFallback,
    paymentType: d.payment ? (t.paymentType[d.payment.payment_type_id] ?? '') : '',
    amount: d.payment ? formatUsd(d.payment.amount_cents) : t.noAmount,
    plan: invoicePlan(d, lang),
  };
}

/**
 * A plan link's invoice names the whole plan (issue 41, item 5; decision 0241): the total, what is paid today and
 * each later charge with its date, and the card they go to. Before the deposit the charges are projected from the
 * chosen amount as the payment page projects them (planSchedule); after it, the stored ones.
 */
function invoicePlan(d: DocumentData, lang: Lang) {
  const plan = d.plan;
  if (!plan) return null;
  const t = TEXTS[lang];
  const todayCents = plan.depositCents ?? d.payment?.amount_cents ?? null;
  const charges =
    plan.installments ?? (todayCents === null ? null : planSchedule(plan.shape, plan.totalCents - todayCents));
  const locale = lang === 'es' ? 'es-US' : 'en-US';
  return {
    total: formatUsd(plan.totalCents),
    today: todayCents === null ? t.noAmount : formatUsd(todayCents),
    lines: charges?.map((c) => planScheduleLine(c, locale)) ?? [],
    note:
      charges === null
        ? t.planNoAmount
        : charges.length === 0
          ? t.planNothingLater
          : t.planNote(formatUsd(charges.reduce((sum, c) => sum + c.amountCents, 0)), PLAN_NOTICE_DAYS),
  };
}

export function authorizationModel(d: DocumentData, lang: Lang): string[] {
  return TEXTS[lang].authText({
    practice: d.practice.name,
    patient: patientName(d.link),
    payor: payorName(d.link) || '________________',
    amount: d.payment ? formatUsd(d.payment.amount_cents) : TEXTS[lang].noAmount,
  });
}

/** A generated PDF is byte-for-byte reproducible from its data: fixed dates, no random ids. */
async function newDoc(title: string, created: Date): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title);
  doc.setProducer('Paylink');
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  return doc;
}

async function invoicePdf(d: DocumentData, lang: Lang): Promise<Uint8Array> {
  const t = TEXTS[lang];
  const m = invoiceModel(d, lang);
  const doc = await newDoc(`${t.title.invoice} ${m.number}`, new Date(d.submission.created_at));
  const w = await PdfWriter.create(doc, { lang });
  w.text(m.practice[0] ?? '', { size: 16, font: 'bold', gap: 2 });
  for (const line of m.practice.slice(1)) w.text(line, { size: 10, gap: 0 });
  w.space(12);
  w.heading(t.title.invoice, 1, { size: 20, gap: 8 });
  w.row(t.invoiceNumber, m.number);
  w.row(t.invoiceDate, m.date);
  w.space(8);
  w.heading(t.billTo, 2, { size: 11, gap: 2 });
  for (const line of m.billTo) w.text(line, { size: 10, gap: 0 });
  w.rule();
  w.row(t.description, m.description, { size: 11 });
  if (m.paymentType) w.row('', m.paymentType, { size: 11 });
  w.row(t.amount, m.amount, { size: 11 });
  w.rule();
  w.row(t.total, m.amount, { size: 13, labelWidth: 200 });
  w.space(16);
  if (m.plan) {
    w.heading(t.planHeading, 2, { size: 13, gap: 4 });
    w.row(t.planTotal, m.plan.total, { size: 11, labelWidth: 200 });
    w.row(t.planToday, m.plan.today, { size: 11, labelWidth: 200 });
    if (m.plan.lines.length) w.text(t.planLater, { size: 11, font: 'bold', gap: 2 });
    for (const line of m.plan.lines) w.text(line, { size: 11, gap: 1 });
    w.space(6);
    w.text(m.plan.note, { size: 10, gap: 6 });
  }
  w.text(m.plan ? t.planInvoiceNote : t.invoiceNote, { size: 9, color: 0.35 });
  return doc.save();
}

async function authorizationPdf(d: DocumentData, lang: Lang): Promise<Uint8Array> {
  const t = TEXTS[lang];
  const doc = await newDoc(t.title.payment_authorization, new Date(d.submission.created_at));
  const w = await PdfWriter.create(doc, { lang });
  w.text(d.practice.name, { size: 14, font: 'bold', gap: 10 });
  w.heading(t.title.payment_authorization, 1, { size: 20, gap: 10 });
  w.row(t.invoiceDate, formatDate(new Date(d.submission.created_at), lang));
  w.space(8);
  for (const p of authorizationModel(d, lang)) w.text(p, { size: 11, gap: 8 });
  return doc.save();
}

/** ID files become pages: images fitted to the page, PDFs' own pages copied in. */
async function idPdf(d: DocumentData, lang: Lang, files: { row: SubmissionFileRow; bytes: Uint8Array }[]) {
  const t = TEXTS[lang];
  const doc = await newDoc(t.title[d.submission.kind], new Date(d.submission.created_at));
  const w = await PdfWriter.create(doc, { lang, firstPage: false });
  for (const f of files) {
    const side = f.row.side === 'front' ? t.front : t.back;
    if (f.row.mime === 'application/pdf') {
      // The person's own file: its pages as they are (with the tags they carry, if any; decision 0221).
      await w.append(await PDFDocument.load(ownBytes(f.bytes), { updateMetadata: false }));
      continue;
    }
    const img =
      f.row.mime === 'image/png' ? await doc.embedPng(ownBytes(f.bytes)) : await doc.embedJpg(ownBytes(f.bytes));
    w.newPage();
    w.heading(t.pdf.uploadedFile(side), 1, { size: 14, gap: 10 });
    const scale = Math.min(w.width / img.width, (w.y - w.margin) / img.height, 1);
    w.image(img, { width: img.width * scale, height: img.height * scale, alt: t.pdf.idImageAlt(side) });
  }
  return doc.save();
}

/**
 * The original document of a submission, as the signer sees it: generated for the invoice and the authorisation, the
 * practice's PDF for the contract, the uploaded files for IDs. Its SHA-256 goes on the audit page.
 */
export async function buildOriginalPdf(
  d: DocumentData,
  lang: Lang,
  /** `contract`: the bytes from `contractForSubmission` (contracts.ts), read by the caller. */
  opts: { contract?: Uint8Array; files?: { row: SubmissionFileRow; bytes: Uint8Array }[] },
): Promise<Uint8Array> {
  switch (d.submission.kind) {
    case 'invoice':
      return invoicePdf(d, lang);
    case 'payment_authorization':
      return authorizationPdf(d, lang);
    case 'contract':
      if (!opts.contract) throw new Error('buildOriginalPdf: the contract bytes are required');
      return opts.contract;
    case 'patient_id':
    case 'payor_id':
      return idPdf(d, lang, opts.files ?? []);
  }
}
