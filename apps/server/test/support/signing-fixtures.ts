import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stepRoutesFor, type PaymentSourceId } from '@paylink/shared';
import type { Queryable } from '../../src/db/client.js';
import { newLinkId } from '../../src/lib/ids.js';
import { ASSETS_DIR } from '../../src/modules/signing/documents.js';

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

export const fixture = (name: string) => fs.readFileSync(path.join(ASSETS_DIR, 'test-fixtures', name));

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
