import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { SAMPLE_CONTRACT } from './documents.js';
import { PdfWriter } from './pdf-writer.js';

/**
 * The bundled sample contract (assets/sample-contract.pdf), so the contract step works before a practice supplies its
 * own (CONTRACT_PDF_PATH). Regenerate: node --import tsx apps/server/src/modules/signing/generate-sample-contract.ts
 */
export async function buildSampleContract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fixed = new Date('2026-01-01T00:00:00Z');
  doc.setTitle('Sample patient financial agreement');
  doc.setProducer('Paylink');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const w = await PdfWriter.create(doc);
  w.text('SAMPLE – replace with your practice’s contract (CONTRACT_PDF_PATH)', { size: 9, color: 0.45, gap: 10 });
  w.text('Patient Financial Agreement and Consent', { size: 18, font: 'bold', gap: 12 });
  const sections: [string, string[]][] = [
    [
      '1. Scope',
      [
        'This agreement covers the financial terms of the surgical procedure described on your invoice, including the surgeon’s fee, facility fee and anesthesia fee quoted by the practice.',
      ],
    ],
    [
      '2. Deposits and payments',
      [
        'A deposit reserves your surgery date. Deposits are non-refundable. Partial payments are applied to your balance in the order they are received.',
        'The remaining balance is due no later than fourteen (14) days before the date of surgery unless otherwise agreed in writing.',
      ],
    ],
    [
      '3. Pre-operative appointment',
      [
        'You must attend the pre-operative appointment. If a payor pays for you, you must be present with the card used for payment on the pre-op day; otherwise the surgeon may cancel the procedure.',
      ],
    ],
    [
      '4. Cancellations and rescheduling',
      [
        'Cancellations made more than thirty (30) days before surgery may be rescheduled once without a fee. Cancellations made later may forfeit all amounts paid.',
      ],
    ],
    [
      '5. Revisions and complications',
      [
        'Fees for revisions, additional procedures or treatment of complications are not included unless the practice states otherwise in writing.',
      ],
    ],
    [
      '6. Insurance',
      [
        'Cosmetic procedures are generally not covered by insurance. You are responsible for all amounts not paid by a third party.',
      ],
    ],
    [
      '7. Electronic records and signatures',
      [
        'You agree to receive this agreement electronically and to sign it electronically. A copy of the signed agreement, with an audit trail, is kept by the practice and is available on request.',
      ],
    ],
    [
      '8. Privacy',
      [
        'Your personal and health information is handled under the practice’s notice of privacy practices. Identification documents are used only to verify identity and payment.',
      ],
    ],
  ];
  for (const [heading, paragraphs] of sections) {
    w.text(heading, { size: 12, font: 'bold', gap: 4 });
    for (const p of paragraphs) w.text(p, { size: 11, gap: 8 });
    w.space(6);
  }
  w.newPage();
  w.text('9. Acknowledgement', { size: 12, font: 'bold', gap: 4 });
  w.text(
    'By signing, you confirm that you have read this agreement, had the opportunity to ask questions, and accept its terms. The signature page and the audit trail follow this page in the signed copy.',
    { size: 11, gap: 8 },
  );
  return doc.save();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.writeFileSync(SAMPLE_CONTRACT, await buildSampleContract());
  console.log(`Wrote ${SAMPLE_CONTRACT}`);
}
