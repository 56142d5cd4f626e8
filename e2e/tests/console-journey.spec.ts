// Issue 13's "Done when" journeys in a real browser. 1) The demo coordinator (printed by the product's start-up) signs
// in to the console, creates a link and sends it by SMS; the SMS with the link is in the sandbox outbox, delivered; the
// patient opens it in a second browser context and completes two steps; the board and the link's page follow without
// a reload; the coordinator cancels (confirmation + reason) and the patient lands on /linkcancelled at their next
// action. 2) A payor link sent by e-mail and paid: payment and signed documents on the link's page, the payment in the
// CSV export. axe on each console screen on the way.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { uniqueEmail, uniquePhone, type TestLink } from '../support/admin.js';
import { expectAccessible } from '../support/a11y.js';
import {
  CARDS,
  assertEnabled,
  choosePayment,
  expectConfirmation,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payButton,
  payNow,
  signDocumentStep,
  signInBySms,
  signInFrame,
  signingFrame,
  submitPatientInfo,
  walkToPayment,
  type Flow,
} from '../support/flows.js';
import { messageText } from '../support/outbox.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

test('coordinator creates a link in the console and follows the patient live, then cancels it', async ({
  product,
  outbox,
  staff,
  openSession,
}) => {
  const { page: console } = await staff('demo', { viewport: { width: 1280, height: 900 } });
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

  // Send by SMS: the message with the personal link lands in the sandbox outbox and is delivered.
  await console.getByRole('button', { name: 'Send by SMS' }).click();
  await console.getByText('Sent by SMS. It is in the outbox.').waitFor();
  const sms = await outbox.waitFor({ to: phone, channel: 'sms', match: (m) => m.text.includes(url) });
  assert.match(sms.text, /Reply STOP to opt out\.$/);
  await eventually(
    async () => (await outbox.read(phone)).find((m) => m.id === sms.id)?.deliveryStatus === 'delivered',
    { message: 'the link SMS delivered (sandbox status callback)' },
  );

  // Back on the board: the new link, not started.
  await console.getByRole('link', { name: 'Links', exact: true }).click();
  const row = console.locator(`tr[data-link-id="${id}"]`);
  await row.getByText('Not opened yet').waitFor();

  // The patient, on a phone, signs in and completes the first step.
  // The patient opens the link from the SMS itself.
  const smsUrl = /https?:\/\/\S+/.exec(sms.text)![0];
  assert.equal(smsUrl, url);
  const link: TestLink = { id, url: smsUrl, phone, email: '', payorEmail: undefined, input };
  const { page: patient } = await openSession({ label: 'patient', viewport: { width: 390, height: 844 } });
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
  // The send and its delivery status on the link's page.
  const sent = console.getByRole('list', { name: 'Messages sent for this link' }).locator('li', {
    hasText: 'Link sent · SMS',
  });
  await sent.getByText('Delivered').waitFor();
  await console.getByRole('list', { name: 'Timeline' }).getByText('Sent the link by SMS').first().waitFor();
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
});

test('a payor link sent by e-mail from the console and paid: payment and documents on its page and in the CSV', async ({
  product,
  outbox,
  staff,
  openSession,
}) => {
  const { page: console } = await staff('demo', { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await console.getByRole('link', { name: 'New link' }).click();
  await console.getByRole('heading', { level: 1, name: 'New link' }).waitFor();
  const input = {
    firstName: 'Mateo',
    lastName: `Payor${Date.now() % 100000}`,
    address: '400 Ocean Drive',
    city: 'Miami Beach',
    state: 'FL',
    zipCode: '33139',
    signInMethod: 'email' as const,
  };
  const email = uniqueEmail('patient');
  const payorEmail = uniqueEmail('payor');
  await console.getByLabel('First name').fill(input.firstName);
  await console.getByLabel('Last name').fill(input.lastName);
  await console.getByLabel('E-mail', { exact: true }).fill(email);
  await console.getByLabel('Address').fill(input.address);
  await console.getByLabel('City').fill(input.city);
  await console.getByLabel('State', { exact: true }).fill(input.state);
  await console.getByLabel('ZIP code').fill(input.zipCode);
  await console.getByLabel('A payor pays for this patient').check();
  await console.getByLabel('Payor’s name').fill('Elena Ruiz');
  await console.getByLabel('Payor’s e-mail').fill(payorEmail);
  await console.getByLabel('The patient signs in with').selectOption({ label: 'A link by e-mail' });
  await console.getByRole('button', { name: 'Create link' }).click();
  await console.getByText(`Link created for ${input.firstName} ${input.lastName}.`).waitFor();
  const url = (await console.getByTestId('link-url').textContent())!.trim();
  const id = new URL(url).searchParams.get('id')!;

  // Send by e-mail: no SMS button without a phone; the e-mail carries the link and is accepted by the relay.
  assert.equal(await console.getByRole('button', { name: 'Send by SMS' }).count(), 0);
  await console.getByRole('button', { name: 'Send by e-mail' }).click();
  await console.getByText('Sent by e-mail. It is in the outbox.').waitFor();
  const mail = await outbox.waitFor({ to: email, channel: 'email', match: (m) => m.text.includes(url) });
  assert.match(messageText(mail), /Bella Vista Plastic Surgery/);
  await eventually(
    async () => (await outbox.read(email)).find((m) => m.id === mail.id)?.deliveryStatus === 'accepted',
    { message: 'the link e-mail accepted by the (sandbox) relay' },
  );

  // The payor, at a desktop, walks every step and pays.
  const link: TestLink = { id, url, phone: '', email, payorEmail, input };
  const { page } = await openSession({ label: 'payor', viewport: { width: 1280, height: 800 } });
  const f: Flow = { page, product, link, lng: 'en' };
  await walkToPayment(f, { type: 2, source: 2, amount: '1500' });
  await fillCard(f, { number: CARDS.visaFrictionless, name: 'Elena Ruiz', payorEmail });
  await signInFrame(f, signingFrame(f), { by: 'type', name: 'Elena Ruiz' });
  await assertEnabled(payButton(f), 'PAY NOW after signing the authorization', 30_000);
  await payNow(f);
  const { transactionId } = await expectConfirmation(f, { amount: '$1,500.00' });

  // The link's page: the payment with the card and the ids, the signed documents, the e-mail's status.
  await console.goto(`${product.baseUrl}/console/links/${id}`);
  await console.getByRole('heading', { level: 1, name: `${input.firstName} ${input.lastName}` }).waitFor();
  const payment = console.getByRole('region', { name: 'Payment', exact: true });
  await payment.getByText('$1,500.00').first().waitFor({ timeout: 30_000 });
  await payment.getByText(transactionId).waitFor();
  await payment.getByText(/•••• 0002$/).waitFor();
  const documents = console.getByRole('region', { name: 'Documents', exact: true });
  for (const name of ['Invoice', 'Contract', 'Payment authorization'])
    await documents.getByRole('button', { name: `Download PDF ${name}`, exact: true }).waitFor();
  const sent = console.getByRole('list', { name: 'Messages sent for this link' }).locator('li', {
    hasText: 'Link sent · e-mail',
  });
  await sent.getByText('Accepted by the mail server').waitFor();
  await expectAccessible(console, 'console paid payor link');

  // Payments → Export CSV: the row with the amount in dollars and the transaction id, no card number.
  await console.getByRole('link', { name: 'Payments', exact: true }).click();
  await console.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  const [download] = await Promise.all([
    console.waitForEvent('download'),
    console.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const row = csv.split('\r\n').find((l) => l.startsWith(`${id},`));
  assert.ok(row, `the CSV has the link's payment:\n${csv.slice(0, 500)}`);
  assert.ok(row.includes(',1500.00,'), row);
  assert.ok(row.includes(transactionId), row);
  assert.ok(row.includes('Elena Ruiz'), row);
  assert.doesNotMatch(csv, /\b\d{13,19}\b/, 'no card number in the export');
});
