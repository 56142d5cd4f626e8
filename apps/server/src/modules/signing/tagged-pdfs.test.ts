import type { FastifyInstance } from 'fastify';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';
import { inOrder, pdfAccessibility } from '../../../test/support/pdf-accessibility.js';
import { fixture, multipartFile, seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';
import { buildSignedPdf } from './build-signed-pdf.js';
import { cleanContractPdf } from './clean-contract-pdf.js';
import { buildSampleContract } from './generate-sample-contract.js';
import { prepareStepDocuments } from './prepare-step-documents.js';
import { buildSignServer } from './sign-server.js';
import { submissionForStep } from './submission-queries.js';

/**
 * Issue 29, item 9: every PDF Paylink makes is a tagged PDF a screen reader can follow — its language, its title in
 * the window, a structure tree (headings, paragraphs, tables, the signature as a described figure) linked to the page
 * content — and its text still extracts in reading order. Read back with poppler (pdfinfo, pdftotext) and pdf-lib.
 */
type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let sign: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://pay.example.test', SIGN_ORIGIN: 'https://sign.example.test' });
  sign = await buildSignServer(t.ctx);
  await sign.ready();
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

async function preparedLink(opts: Parameters<typeof seedLinkWithSteps>[1] = {}) {
  const seeded = await seedLinkWithSteps(t.ctx.db, opts);
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: seeded.linkId }));
  const rows = await t.ctx.db.query<{ id: number; route_path: string; document_url: string | null }>(
    'select id, route_path, document_url from link_step where link_id = $1',
    [seeded.linkId],
  );
  const byRoute = Object.fromEntries(rows.rows.map((r) => [r.route_path, r]));
  return { byRoute, token: (route: string) => byRoute[route]!.document_url!.split('/s/')[1]! };
}

const original = async (token: string, lng: string) =>
  (await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf?lng=${lng}` })).rawPayload;

async function complete(token: string, lng: string, how: Record<string, unknown>) {
  const page = await sign.inject({ method: 'GET', url: `/s/${token}?lng=${lng}` });
  const cfg = JSON.parse(/<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!);
  const r = await sign.inject({
    method: 'POST',
    url: `/s/${token}/complete`,
    payload: { lang: lng, documentSha256: cfg.documentSha256, ...how },
  });
  expect(r.statusCode, r.body).toBe(200);
}

async function signedCopy(stepId: number) {
  const sub = await submissionForStep(t.ctx.db, stepId);
  return (await t.ctx.providers.storage.get(sub!.signed_storage_key!))!;
}

/** What every generated PDF has, in the document's language. */
function expectTagged(a: Awaited<ReturnType<typeof pdfAccessibility>>, lang: 'en' | 'es') {
  expect(a.tagged).toBe(true);
  expect(a.lang).toBe(lang === 'es' ? 'es-US' : 'en-US');
  expect(a.displayDocTitle).toBe(true);
  expect(a.title).not.toBe('');
  expect(a.types[0]).toBe('Document');
  expect(a.types).toContain('H1');
}

describe('tagged PDFs (issue 29, item 9)', () => {
  it('the invoice, in English and Spanish: title heading, invoice lines as a table, text in reading order', async () => {
    const l = await preparedLink();
    for (const [lng, heading, numberLabel, total] of [
      ['en', 'Invoice', 'Invoice number', 'Total'],
      ['es', 'Factura', 'Número de factura', 'Total'],
    ] as const) {
      const a = await pdfAccessibility(await original(l.token(StepRoutes.invoice), lng));
      expectTagged(a, lng);
      expect(a.types).toEqual(expect.arrayContaining(['H2', 'P', 'Table', 'TR', 'TH', 'TD']));
      expect(a.structure).toMatch(new RegExp(`H1 \\(block\\)\\n\\s+"${heading}"`));
      expect(a.structure).toMatch(new RegExp(`TH:[^]*?"${numberLabel}"\\n\\s+TD\\n\\s+"INV-`));
      expect(inOrder(a.text, ['Bella Vista Plastic Surgery', heading, numberLabel, 'Rhinoplasty', total])).toBe(true);
    }
  });

  it('the sample contract (the bundled file and its generator): sections as headings, in its language', async () => {
    for (const lng of ['en', 'es'] as const) {
      const a = await pdfAccessibility(await buildSampleContract(lng));
      expectTagged(a, lng);
      expect(a.types.filter((x) => x === 'H2').length).toBe(9);
      const l = await preparedLink();
      const served = await pdfAccessibility(await original(l.token(StepRoutes.contract), lng));
      expect(served.structure).toBe(a.structure);
      expect(served.lang).toBe(a.lang);
    }
  });

  it('a signed contract keeps the contract’s tags and adds the signature as a described figure', async () => {
    const l = await preparedLink();
    await complete(l.token(StepRoutes.contract), 'es', {
      signerName: 'María López',
      method: 'draw',
      signatureDataUrl: `data:image/png;base64,${fixture('id-back.png').toString('base64')}`,
    });
    const a = await pdfAccessibility(await signedCopy(l.byRoute[StepRoutes.contract]!.id));
    expectTagged(a, 'es');
    expect(a.figureAlts).toEqual(['Firma manuscrita de María López']);
    expect(a.types).toEqual(expect.arrayContaining(['H2', 'Figure', 'Table', 'TH', 'TD']));
    // The contract's own headings, then the signature page and the audit page, in one tree and in page order.
    expect(
      inOrder(a.structure, [
        '"Acuerdo Financiero y Consentimiento del Paciente"',
        '"Firma"',
        '"Registro de auditoría"',
      ]),
    ).toBe(true);
    expect(inOrder(a.text, ['1. Alcance', '9. Declaración', 'Firma', 'Firmado por', 'Registro de auditoría'])).toBe(
      true,
    );
  });

  it('the ID pack: a heading and a described photo per side; an uploaded PDF keeps the tags it had', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.patientId);
    const contractPdf = await buildSampleContract('en');
    for (const [side, name, type, bytes] of [
      ['front', 'front.jpg', 'image/jpeg', fixture('id-front.jpg')],
      ['back', 'back.pdf', 'application/pdf', contractPdf],
    ] as const) {
      const { body, contentType } = multipartFile(name, type, bytes);
      const r = await sign.inject({
        method: 'POST',
        url: `/s/${token}/files?side=${side}`,
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(r.statusCode, r.body).toBe(201);
    }
    await complete(token, 'en', {});
    const a = await pdfAccessibility(await signedCopy(l.byRoute[StepRoutes.patientId]!.id));
    expectTagged(a, 'en');
    expect(a.figureAlts).toEqual(['Photo of the identity document as uploaded (front)']);
    expect(
      inOrder(a.structure, [
        /H1 \(block\)\n\s+"ID document – Front"/,
        'Figure',
        // The uploaded PDF's own structure, linked to its copied pages.
        /H1 \(block\)\n\s+"Patient Financial Agreement and Consent"/,
        /H2 \(block\)\n\s+"1. Scope"/,
        /H1 \(block\)\n\s+"Audit trail"/,
        'Table',
      ]),
    ).toBe(true);
  });

  it('the payment authorisation (a payor’s link), in Spanish', async () => {
    const l = await preparedLink({ source: 2, payorName: 'Paul Payor' });
    const a = await pdfAccessibility(await original(l.token(StepRoutes.payment), 'es'));
    expectTagged(a, 'es');
    expect(a.structure).toMatch(/H1 \(block\)\n\s+"Autorización de pago"/);
    expect(a.types).toContain('Table');
  });

  it('a practice’s own contract: its pages stay as they are, /Lang is added if missing, only our pages are tagged', async () => {
    const plain = await PDFDocument.create();
    const font = await plain.embedFont(StandardFonts.Helvetica);
    plain.addPage([612, 792]).drawText('Practice terms, untagged', { x: 72, y: 700, size: 14, font });
    const cleaned = await cleanContractPdf(await plain.save(), { maxPages: 10 });
    expect(cleaned.ok).toBe(true);
    const signed = await buildSignedPdf({
      original: cleaned.ok ? cleaned.bytes : new Uint8Array(),
      originalSha256: 'f'.repeat(64),
      lang: 'es',
      kind: 'contract',
      submissionId: 'sub-1',
      linkId: 'link-1',
      signerName: 'Ana García',
      method: 'type',
      typedSignature: 'Ana García',
      signedAt: new Date('2026-11-27T12:00:00Z'),
      ip: '203.0.113.9',
      userAgent: 'Vitest',
    });
    const a = await pdfAccessibility(signed);
    expectTagged(a, 'es');
    expect(a.structure).not.toContain('Practice terms');
    expect(inOrder(a.text, ['Practice terms, untagged', 'Ana García', 'Registro de auditoría'])).toBe(true);
    const doc = await PDFDocument.load(signed);
    expect(doc.getPage(0).node.has(PDFName.of('StructParents'))).toBe(false);

    // A contract that says its language keeps it; our pages then carry their own.
    plain.setLanguage('fr-FR');
    const french = await cleanContractPdf(await plain.save(), { maxPages: 10 });
    const signedFr = await buildSignedPdf({
      original: french.ok ? french.bytes : new Uint8Array(),
      originalSha256: 'f'.repeat(64),
      lang: 'en',
      kind: 'contract',
      submissionId: 'sub-2',
      linkId: 'link-2',
      signerName: 'Ana García',
      method: 'type',
      typedSignature: 'Ana García',
      signedAt: new Date('2026-11-27T12:00:00Z'),
      ip: null,
      userAgent: null,
    });
    const fr = await pdfAccessibility(signedFr);
    expect(fr.lang).toBe('fr-FR');
    expect(fr.elementLangs).toEqual(['en-US']);

    // A tagged contract uploaded in the console keeps its language and tags through the cleaning.
    const tagged = await cleanContractPdf(await buildSampleContract('es'), { maxPages: 10 });
    const kept = await pdfAccessibility(tagged.ok ? tagged.bytes : new Uint8Array());
    expect(kept).toMatchObject({ tagged: true, lang: 'es-US' });
    expect(kept.structure).toMatch(/H2 \(block\)\n\s+"1. Alcance"/);
    expect(a.elementLangs).toEqual([]);
  });
});
