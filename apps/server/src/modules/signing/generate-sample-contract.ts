import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { SAMPLE_CONTRACT, SAMPLE_CONTRACT_ES } from './documents.js';
import { PdfWriter } from './pdf-writer.js';
import type { Lang } from './sign-texts.js';

type Sections = [string, string[]][];

/** The sample's words per language; the Spanish one mirrors the English clause by clause. */
const SAMPLE = {
  en: {
    title: 'Sample patient financial agreement',
    banner: 'SAMPLE – replace with your practice’s contract (CONTRACT_PDF_PATH)',
    heading: 'Patient Financial Agreement and Consent',
    sections: [
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
    ] as Sections,
    last: [
      '9. Acknowledgement',
      'By signing, you confirm that you have read this agreement, had the opportunity to ask questions, and accept its terms. The signature page and the audit trail follow this page in the signed copy.',
    ],
  },
  es: {
    title: 'Acuerdo financiero del paciente (muestra)',
    banner: 'MUESTRA – reemplácelo por el contrato de su consultorio (CONTRACT_PDF_PATH_ES)',
    heading: 'Acuerdo Financiero y Consentimiento del Paciente',
    sections: [
      [
        '1. Alcance',
        [
          'Este acuerdo cubre las condiciones financieras del procedimiento quirúrgico descrito en su factura, incluidos los honorarios del cirujano, de las instalaciones y de anestesia indicados por el consultorio.',
        ],
      ],
      [
        '2. Depósitos y pagos',
        [
          'Un depósito reserva la fecha de su cirugía. Los depósitos no son reembolsables. Los pagos parciales se aplican a su saldo en el orden en que se reciben.',
          'El saldo restante vence a más tardar catorce (14) días antes de la fecha de la cirugía, salvo acuerdo distinto por escrito.',
        ],
      ],
      [
        '3. Cita preoperatoria',
        [
          'Debe asistir a la cita preoperatoria. Si un pagador paga por usted, debe presentarse con la tarjeta usada para el pago el día de la cita preoperatoria; de lo contrario, el cirujano puede cancelar el procedimiento.',
        ],
      ],
      [
        '4. Cancelaciones y cambios de fecha',
        [
          'Las cancelaciones hechas más de treinta (30) días antes de la cirugía pueden cambiarse de fecha una vez sin cargo. Las cancelaciones posteriores pueden suponer la pérdida de todos los montos pagados.',
        ],
      ],
      [
        '5. Revisiones y complicaciones',
        [
          'Los honorarios por revisiones, procedimientos adicionales o tratamiento de complicaciones no están incluidos, salvo que el consultorio indique lo contrario por escrito.',
        ],
      ],
      [
        '6. Seguro',
        [
          'Por lo general, el seguro no cubre los procedimientos estéticos. Usted es responsable de todos los montos que no pague un tercero.',
        ],
      ],
      [
        '7. Registros y firmas electrónicos',
        [
          'Acepta recibir este acuerdo y firmarlo de forma electrónica. El consultorio conserva una copia del acuerdo firmado, con su registro de auditoría, disponible a pedido.',
        ],
      ],
      [
        '8. Privacidad',
        [
          'Su información personal y de salud se trata según el aviso de prácticas de privacidad del consultorio. Los documentos de identidad se usan solo para verificar la identidad y el pago.',
        ],
      ],
    ] as Sections,
    last: [
      '9. Declaración',
      'Al firmar, confirma que leyó este acuerdo, que tuvo la oportunidad de hacer preguntas y que acepta sus condiciones. En la copia firmada, la página de firma y el registro de auditoría siguen a esta página.',
    ],
  },
} as const;

/**
 * The bundled sample contracts (assets/sample-contract.pdf and sample-contract-es.pdf), so the contract step works in
 * both languages before a practice supplies its own (CONTRACT_PDF_PATH, CONTRACT_PDF_PATH_ES).
 * Regenerate: node --import tsx apps/server/src/modules/signing/generate-sample-contract.ts
 */
export async function buildSampleContract(lang: Lang = 'en'): Promise<Uint8Array> {
  const s = SAMPLE[lang];
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fixed = new Date('2026-01-01T00:00:00Z');
  doc.setTitle(s.title);
  doc.setProducer('Paylink');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const w = await PdfWriter.create(doc, { lang });
  w.text(s.banner, { size: 9, color: 0.45, gap: 10 });
  w.heading(s.heading, 1, { size: 18, gap: 12 });
  for (const [heading, paragraphs] of s.sections) {
    w.heading(heading, 2, { size: 12, gap: 4 });
    for (const p of paragraphs) w.text(p, { size: 11, gap: 8 });
    w.space(6);
  }
  w.newPage();
  w.heading(s.last[0], 2, { size: 12, gap: 4 });
  w.text(s.last[1], { size: 11, gap: 8 });
  return doc.save();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.writeFileSync(SAMPLE_CONTRACT, await buildSampleContract('en'));
  fs.writeFileSync(SAMPLE_CONTRACT_ES, await buildSampleContract('es'));
  console.log(`Wrote ${SAMPLE_CONTRACT} and ${SAMPLE_CONTRACT_ES}`);
}
