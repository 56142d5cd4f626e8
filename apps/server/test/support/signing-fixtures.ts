import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stepRoutesFor, type PaymentSourceId } from '@paylink/shared';
import type { Queryable } from '../../src/db/client.js';
import { newLinkId } from '../../src/lib/ids.js';
import { forgetPracticeRows } from '../../src/lib/practice-rows.js';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, PDFString, StandardFonts } from 'pdf-lib';

/** Test support: a link with a payment choice and its step list, as the step-list use case leaves them. */
export async function seedLinkWithSteps(
  db: Queryable,
  opts: { source?: PaymentSourceId; amountCents?: number; payorName?: string; firstName?: string } = {},
): Promise<{ linkId: string; steps: { id: number; route_path: string }[] }> {
  const linkId = newLinkId();
  const source = opts.source ?? 1;
  await db.query(`insert into practice (id, name, support_phone, support_email, sender_name)
    values (1, 'Bella Vista Plastic Surgery', '(555) 010-0123', 'billing@bellavista.example', 'Bella Vista')
    on conflict (id) do nothing`);
  forgetPracticeRows(db); // written behind the app's back: its per-process copy must not hide it
  await db.query(
    `insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, payor_name, payor_email,
       procedure_description, sign_in_method, expires_at)
     values ($1, $2, 'López', '12 Ocean Ave', 'Miami', 'FL', '33139', '3055550123', 'maria@example.com', $3, $4,
       'Rhinoplasty', 'sms', now() + interval '7 days')`,
    [
      linkId,
      opts.firstName ?? 'María',
      source === 2 ? (opts.payorName ?? 'Paul Payor') : null,
      source === 2 ? 'payor@example.com' : null,
    ],
  );
  await db.query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents) values ($1, 1, $2, $3)`,
    [linkId, source, opts.amountCents ?? 50000],
  );
  for (const [i, route] of stepRoutesFor(source).entries()) {
    await db.query('insert into link_step (link_id, position, route_path) values ($1, $2, $3)', [linkId, i + 1, route]);
  }
  const steps = await db.query<{ id: number; route_path: string }>(
    'select id, route_path from link_step where link_id = $1 order by position',
    [linkId],
  );
  return { linkId, steps: steps.rows };
}

export const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures', name));

/** The text of every page of a PDF, through pdf.js (the same library the signing page uses to show PDFs). */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

/** A multipart body with one file part, as a browser's FormData would send it. */
export function multipartFile(name: string, type: string, bytes: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = `----paylink${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, Buffer.from(bytes), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * A contract as the second penetration test uploaded it (issue 26): its text, a web link, and active content in each
 * place a reader looks for it — an open action and a document-level script, a page action, a link that runs a script,
 * a link that launches a program, a fillable field with a keystroke script, an attached file. Written without object
 * streams, so every object is plain text in the file.
 */
export async function activeContentPdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 18, font });
  const ctx = doc.context;
  const script = (js: string) => ctx.register(ctx.obj({ S: 'JavaScript', JS: PDFString.of(js) }));
  doc.catalog.set(PDFName.of('OpenAction'), script("app.alert('open')"));
  doc.catalog.set(PDFName.of('AA'), ctx.obj({ WC: script("app.alert('close')") }));
  page.node.set(PDFName.of('AA'), ctx.obj({ O: script("app.alert('page')") }));
  const docScripts = ctx.obj({ Names: [PDFString.of('init'), script("app.alert('doc')")] });
  doc.catalog.set(PDFName.of('Names'), ctx.obj({ JavaScript: docScripts }));
  // Embedded when the file is saved, beside the scripts in the catalogue's name tree.
  await doc.attach(Buffer.from('MZ not really a program'), 'payload.exe', { mimeType: 'application/octet-stream' });
  const field = doc.getForm().createTextField('patient.name');
  field.addToPage(page, { x: 72, y: 600, width: 200, height: 24 });
  field.setText('Filled in by the practice');
  field.acroField.dict.set(PDFName.of('AA'), ctx.obj({ K: script("app.alert('key')") }));
  const link = (action: { [key: string]: PDFString | string }, y: number) =>
    ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, y, 300, y + 20], Border: [0, 0, 0], A: action }));
  page.node.addAnnot(link({ S: 'URI', URI: PDFString.of('https://clinic.example/privacy') }, 500));
  page.node.addAnnot(link({ S: 'JavaScript', JS: PDFString.of("app.alert('link')") }, 460));
  page.node.addAnnot(link({ S: 'Launch', F: PDFString.of('cmd.exe') }, 420));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** What in a PDF can run or open on a reader's device, found by walking every object (object streams included). */
export async function activeContentIn(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const found = new Set<string>();
  const visit = (o: unknown): void => {
    if (o instanceof PDFArray) return o.asArray().forEach(visit);
    const d = o instanceof PDFDict ? o : o instanceof PDFStream ? o.dict : null;
    if (!d) return;
    const s = d.get(PDFName.of('S'));
    if (s instanceof PDFName && ['JavaScript', 'Launch', 'SubmitForm', 'ImportData'].includes(s.decodeText())) {
      found.add(s.decodeText());
    }
    for (const key of ['JS', 'AA', 'OpenAction', 'EmbeddedFiles', 'AcroForm', 'XFA']) {
      if (d.has(PDFName.of(key))) found.add(key);
    }
    const type = d.get(PDFName.of('Type'));
    if (type instanceof PDFName && ['Filespec', 'EmbeddedFile'].includes(type.decodeText()))
      found.add(type.decodeText());
    for (const [, v] of d.entries()) visit(v);
  };
  for (const [, o] of doc.context.enumerateIndirectObjects()) visit(o);
  return [...found].sort();
}

/** The web addresses a PDF's link annotations open. */
export async function linkTargets(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const out: string[] = [];
  for (const page of doc.getPages()) {
    for (const ref of page.node.Annots()?.asArray() ?? []) {
      const a = doc.context.lookup(ref, PDFDict).lookupMaybe(PDFName.of('A'), PDFDict);
      const uri = a?.get(PDFName.of('URI'));
      if (uri instanceof PDFString) out.push(uri.decodeText());
    }
  }
  return out;
}
