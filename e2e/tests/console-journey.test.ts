// Issue 13's "Done when" journey in a real browser: the demo coordinator (printed by the product's start-up) signs in
// to the console, creates a link, copies it; the patient opens it in a second browser context and completes two
// steps; the board and the link's page follow without a reload; the coordinator cancels (confirmation + reason) and
// the patient lands on /linkcancelled at their next action. axe on each console screen on the way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser } from 'playwright-core';
import { uniquePhone, type TestLink } from '../support/admin.js';
import { expectAccessible } from '../support/a11y.js';
import { consoleSignIn, demoCoordinator } from '../support/console.js';
import {
  choosePayment,
  expectRoute,
  nextStep,
  openLink,
  signDocumentStep,
  signInBySms,
  submitPatientInfo,
} from '../support/flows.js';
import type { RunningProduct } from '../support/server.js';
import { setUpProduct } from '../support/suite.js';
import { eventually } from '../support/wait.js';

let product: RunningProduct;
let browser: Browser;
setUpProduct((p, b) => ((product = p), (browser = b)));

test('coordinator creates a link in the console and follows the patient live, then cancels it', async () => {
  const coordinatorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const patientContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const console = await coordinatorContext.newPage();
    await consoleSignIn(console, product, await demoCoordinator(product));
    await expectAccessible(console, 'console board');

    // New link: the fields of `links create`, validated before anything is sent.
    await console.getByRole('link', { name: 'New link' }).click();
    await console.getByRole('heading', { level: 1, name: 'New link' }).waitFor();
    await console.getByRole('button', { name: 'Create link' }).click();
    await console.getByText('Enter the first name.').waitFor();
    await expectAccessible(console, 'console new link (invalid)');
    const input = {
      firstName: 'Lucia',
      lastName: `Console${Date.now() % 100000}`,
      address: '12 Palm Street',
      city: 'Miami',
      state: 'FL',
      zipCode: '33101',
    };
    const phone = uniquePhone();
    await console.getByLabel('First name').fill(input.firstName);
    await console.getByLabel('Last name').fill(input.lastName);
    await console.getByLabel('Mobile phone').fill(`(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`);
    await console.getByLabel('Address').fill(input.address);
    await console.getByLabel('City').fill(input.city);
    await console.getByLabel('State', { exact: true }).fill(input.state);
    await console.getByLabel('ZIP code').fill(input.zipCode);
    await console.getByLabel('Procedure (shown to the patient)').fill('Rhinoplasty consultation');
    await console.getByRole('button', { name: 'Create link' }).click();
    await console.getByText(`Link created for ${input.firstName} ${input.lastName}.`).waitFor();
    await console.getByRole('button', { name: 'Copy link' }).waitFor();
    await expectAccessible(console, 'console link created');
    const url = (await console.getByTestId('link-url').textContent())!.trim();
    const id = new URL(url).searchParams.get('id')!;
    assert.ok(id, 'the personal link carries the id');

    // Back on the board: the new link, not started.
    await console.getByRole('link', { name: 'Links', exact: true }).click();
    const row = console.locator(`tr[data-link-id="${id}"]`);
    await row.getByText('Not opened yet').waitFor();

    // The patient, on a phone, signs in and completes the first step.
    const link: TestLink = { id, url, phone, email: '', payorEmail: undefined, input };
    const patient = await patientContext.newPage();
    const f = { page: patient, product, link, lng: 'en' as const };
    await openLink(f);
    await signInBySms(f);
    await choosePayment(f, { type: 1, source: 1, amount: '750' });
    await submitPatientInfo(f);
    await expectRoute(patient, '/patientinvoicedetail');

    // The board follows without a reload: amount chosen, the step reached, when the patient was active.
    await row.getByText(/^Invoice 2\/\d+$/).waitFor({ timeout: 30_000 });
    await row.getByText('$750.00').waitFor();
    await row.getByText(/^Active /).waitFor();

    // The link's page, then the second step: the page follows too.
    await row.getByRole('link', { name: `${input.firstName} ${input.lastName}` }).click();
    await console.getByRole('heading', { level: 1, name: `${input.firstName} ${input.lastName}` }).waitFor();
    const steps = console.getByRole('region', { name: 'Steps' });
    await steps
      .getByText(/^Done /)
      .first()
      .waitFor();
    await expectAccessible(console, 'console link detail');
    await signDocumentStep(f, { by: 'type' });
    await nextStep(f);
    await expectRoute(patient, '/patientiddocs');
    await eventually(async () => (await steps.getByText(/^Done /).count()) >= 2, {
      timeout: 30_000,
      message: 'the link page shows the second step done without a reload',
    });
    const timeline = console.getByRole('list', { name: 'Timeline' });
    await timeline.locator('li').first().waitFor();
    assert.ok((await timeline.locator('li').count()) >= 3, 'the timeline lists what happened');

    // Cancel: a confirmation with a required reason.
    await console.getByRole('button', { name: 'Cancel link' }).click();
    const dialog = console.getByRole('dialog', { name: 'Cancel the link?' });
    await dialog.waitFor();
    await expectAccessible(console, 'console cancel dialog');
    await dialog.getByRole('button', { name: 'Cancel link' }).click();
    await dialog.getByText('Give a reason.').waitFor();
    await dialog.getByLabel('Reason (kept in the audit trail)').fill('Patient asked to stop');
    await dialog.getByRole('button', { name: 'Cancel link' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await console.getByText('Cancelled', { exact: true }).first().waitFor();
    await console.getByText('Reason: Patient asked to stop').waitFor();

    // The patient's next action ends on /linkcancelled.
    await patient.reload();
    await expectRoute(patient, '/linkcancelled');
  } finally {
    await coordinatorContext.close();
    await patientContext.close();
  }
});
