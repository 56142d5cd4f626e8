import { PDFDocument } from 'pdf-lib';
import { ownBytes, PdfWriter } from './pdf-writer.js';
import { formatDate, TEXTS, type Lang } from './sign-texts.js';
import type { SignatureMethod, SubmissionKind } from './types.js';

export interface SignedPdfInput {
  original: Uint8Array;
  originalSha256: string;
  lang: Lang;
  kind: SubmissionKind;
  submissionId: string;
  linkId: string;
  signerName: string;
  method: SignatureMethod;
  /** PNG bytes of a drawn signature. */
  signaturePng?: Uint8Array;
  /** The typed signature. */
  typedSignature?: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  files?: { side: 'front' | 'back'; name: string; sha256: string }[];
}

/**
 * The record kept for staff: the original document's pages, a signature page (drawn image or typed name, signer,
 * date) and an audit page (who, when, from where, and the SHA-256 of the original).
 */
export async function buildSignedPdf(input: SignedPdfInput): Promise<Uint8Array> {
  const t = TEXTS[input.lang];
  const doc = await PDFDocument.load(ownBytes(input.original), { updateMetadata: false });
  doc.setTitle(`${t.title[input.kind]} – ${input.signerName}`);
  doc.setProducer('Paylink');
  doc.setModificationDate(input.signedAt);
  const when = `${input.signedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`;

  // The original's pages keep what they carry (their /Lang, their tags if any); only the pages added here are ours to
  // tag, in the signer's language (decision 0221).
  const w = await PdfWriter.create(doc, { lang: input.lang });
  if (input.method !== 'upload') {
    w.heading(t.pdf.signaturePage, 1, { size: 18, gap: 12 });
    w.text(t.title[input.kind], { size: 12, gap: 16 });
    if (input.signaturePng) {
      const img = await doc.embedPng(ownBytes(input.signaturePng));
      const scale = Math.min(300 / img.width, 120 / img.height);
      const h = img.height * scale;
      w.ensure(h + 10);
      w.image(img, { width: img.width * scale, height: h, alt: t.pdf.signatureAlt(input.signerName) });
      w.space(4);
    } else if (input.typedSignature) {
      w.text(input.typedSignature, { size: 28, font: 'italic', gap: 4 });
    }
    w.rule();
    w.row(t.pdf.signedBy, input.signerName, { size: 11 });
    w.row(t.signDate, formatDate(input.signedAt, input.lang), { size: 11 });
    w.row(t.pdf.signedAt, when, { size: 11 });
    w.row(t.pdf.ip, input.ip ?? '—', { size: 11 });
    w.newPage();
  }

  w.heading(t.pdf.auditPage, 1, { size: 18, gap: 12 });
  w.row(t.pdf.document, t.title[input.kind]);
  w.row(t.pdf.submission, input.submissionId);
  w.row(t.pdf.link, input.linkId);
  w.row(t.pdf.signedBy, input.signerName);
  w.row(t.pdf.method, t.pdf.methods[input.method]);
  w.row(t.pdf.signedAt, when);
  w.row(t.pdf.ip, input.ip ?? '—');
  w.row(t.pdf.userAgent, input.userAgent ?? '—');
  w.space(8);
  w.text(t.pdf.originalHash, { size: 10, font: 'bold', gap: 2 });
  w.text(input.originalSha256, { size: 10, gap: 8 });
  for (const f of input.files ?? []) {
    w.text(t.pdf.fileHash(f.side === 'front' ? t.front : t.back, f.name), { size: 10, font: 'bold', gap: 2 });
    w.text(f.sha256, { size: 10, gap: 8 });
  }
  w.space(8);
  w.text(t.pdf.auditNote, { size: 9, color: 0.35 });
  return doc.save();
}
