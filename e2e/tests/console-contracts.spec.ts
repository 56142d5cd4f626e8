// Issue 16, item 3 (decision 0168): an admin uploads the practice's Spanish contract in the console's Settings, sees it
// in effect (file name, size), a non-PDF is refused with a message, and a patient reading in Spanish then gets that
// contract in the signing frame, without the "only in English" note.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import {
  completeDocumentSteps,
  expectRoute,
  sayRe,
  signDocumentStep,
  signingFrame,
  submitPatientInfo,
} from '../support/flows.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

// Any real PDF stands for the practice's Spanish contract; the English sample is easy to tell from the Spanish one.
const CONTRACT = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/assets/sample-contract.pdf'),
);

/** One page and an open action that runs a script. */
async function scriptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Contract with a script');
  const action = doc.context.obj({ S: 'JavaScript', JS: PDFString.of("app.alert('hello')") });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return Buffer.from(await doc.save());
}

async function allLoaded(page: Page) {
  await eventually(
    async () =>
      (await page
        .getByRole('status')
        .filter({ hasText: /Loading|Cargando/ })
        .count()) === 0,
    {
      message: 'every section of Settings loaded',
    },
  );
}

test('console: an admin uploads the Spanish contract; a Spanish reader signs that contract', async ({
  product,
  admin,
  staff,
  patient,
}) => {
  // The admin, at a desktop.
  {
    const { page, close } = await staff('admin', { viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await page.goto(`${product.baseUrl}/console/settings`);
    await page.getByRole('heading', { level: 2, name: 'Contract' }).waitFor();
    await allLoaded(page);
    const spanish = page.getByRole('group', { name: 'Spanish contract' });
    await spanish.getByText('the sample contract that comes with Paylink', { exact: false }).waitFor();
    await expectAccessible(page, 'console settings, contracts');

    const input = spanish.getByLabel('Upload a new Spanish contract');
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a contract') });
    await spanish.getByRole('button', { name: 'Upload (Spanish)', exact: true }).click();
    await spanish.getByRole('alert').getByText('This file is not a PDF.', { exact: false }).waitFor();

    // A contract exported with a script that runs on opening (issue 26): kept, without the script, and the admin is told.
    await input.setInputFiles({ name: 'with-script.pdf', mimeType: 'application/pdf', buffer: await scriptedPdf() });
    await spanish.getByRole('button', { name: 'Upload (Spanish)', exact: true }).click();
    await spanish
      .getByRole('status')
      .getByText('Paylink took off what could run or open on a reader’s device: scripts. The pages look the same.', {
        exact: false,
      })
      .waitFor();

    await input.setInputFiles({ name: 'contrato-clinica.pdf', mimeType: 'application/pdf', buffer: CONTRACT });
    await spanish.getByRole('button', { name: 'Upload (Spanish)', exact: true }).click();
    await spanish.getByRole('status').getByText('Contract uploaded.', { exact: false }).waitFor();
    await spanish.getByText(/contrato-clinica\.pdf \(\d+(\.\d)? KB, \d+ pages\), uploaded .* by Test admin/).waitFor();
    assert.equal(await spanish.getByRole('button', { name: /^Remove upload/ }).count(), 1);
    const view = await spanish.getByRole('link', { name: /^View/ }).getAttribute('href');
    const pdf = await page.request.get(view!);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');
    // What is stored is the cleaned copy of the file: a PDF of the same pages.
    const stored = await PDFDocument.load(await pdf.body());
    assert.equal(stored.getPageCount(), (await PDFDocument.load(CONTRACT)).getPageCount());
    await expectAccessible(page, 'console settings, Spanish contract uploaded');
    await close();
  }

  // A new link, read in Spanish: the contract frame shows the uploaded contract, with no "only in English" note.
  const link = await admin.createLink({ firstName: 'Lucía', lastName: 'Ortega', language: 'es' });
  const { page, flow: f } = await patient(link, { lng: 'es', viewport: PHONE, locale: 'es-US' });
  await page.getByLabel(sayRe('es', 'patientInfo.amount')).fill('500');
  await submitPatientInfo(f);
  await completeDocumentSteps(f, { until: '/patientcontract', name: 'Lucía Ortega' });
  await expectRoute(page, '/patientcontract');
  const frame = signingFrame(f);
  await frame.locator('#pdf-text').getByText('Patient Financial Agreement and Consent').first().waitFor();
  assert.equal(await frame.locator('#contract-lang-note').count(), 0, 'no "only in English" note');
  await signDocumentStep(f, { by: 'type', name: 'Lucía Ortega', axe: 'uploaded Spanish contract' });
});
