// Money in the console (issue 15): an admin registers a webhook to a real local HTTP receiver (secret shown once);
// a patient pays a link in the browser; the sandbox batch settles; a billing user refunds part of it from the link
// page (amount, reason, confirmation) and sees "Partially refunded"; the refund receipt reaches the outbox; the
// receiver gets a payment.refunded event whose signature verifies with the documented algorithm, and the admin sees
// the delivery (status code, time) in the console and replays it. A coordinator sees no refund action. axe on each
// new screen, English on a desktop and Spanish on a phone.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import { CARDS, expectConfirmation, fillCard, payNow, walkToPayment, type Flow } from '../support/flows.js';
import { messageText } from '../support/outbox.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

/** The receiver of docs/money.md: answers 200 and keeps each request's raw body and signature header. */
const received: { body: string; signature: string }[] = [];
let receiver: http.Server;
let receiverUrl: string;
test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['paylink-signature'] ?? ''),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paylink`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** docs/money.md, "Verifying a signature", as a receiver would run it. */
function verifyPaylink(secret: string, rawBody: string, header: string, toleranceSec = 300): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((p) => p.split('='))) as Record<string, string>;
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > toleranceSec) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

// Several cards may load at once (documents, messages, refunds): wait until none is loading.
const settled = (page: Page) =>
  eventually(
    async () =>
      (await page
        .getByRole('status')
        .filter({ hasText: /Loading|Cargando/ })
        .count()) === 0,
    {
      message: 'every card loaded',
    },
  );

test('webhook registered in the console; billing refunds part of a paid link; receipt, signed delivery, replay', async ({
  product,
  admin,
  outbox,
  openSession,
  staff,
}) => {
  const adminUser = await admin.createStaff('admin');
  const billing = await admin.createStaff('billing');
  let secret = '';

  // 1. The admin registers the receiver: the secret is shown once.
  {
    const { page, close } = await staff(adminUser, { label: 'admin' });
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await settled(page);
    await expectAccessible(page, 'console webhooks (en)');
    // Validation first: an empty URL is refused in the page.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Enter a full URL starting with https://').waitFor();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Description (optional)').fill('Bookkeeping test receiver');
    assert.ok(await page.getByRole('checkbox', { name: 'payment.refunded' }).isChecked(), 'payment.refunded chosen');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    secret = (await shown.locator('code').textContent())!.trim();
    assert.match(secret, /^whsec_/, 'the signing secret is shown');
    await page.getByTestId('webhook-endpoint').filter({ hasText: receiverUrl }).waitFor();
    await expectAccessible(page, 'console webhooks with secret (en)');
    // Shown once: after a reload the page no longer has it.
    await page.reload();
    await page.getByTestId('webhook-endpoint').filter({ hasText: receiverUrl }).waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'the secret is not shown again');
    await close();
  }

  // 2. A patient pays $500 in the browser.
  const link = await admin.createLink({ firstName: 'Lucia', lastName: 'Refundtest' });
  let transactionId = '';
  {
    const { page, close } = await openSession({ label: 'patient' });
    const f: Flow = { page, product, link, lng: 'en' };
    await walkToPayment(f, { type: 1, source: 1, amount: '500' });
    await fillCard(f, { number: CARDS.visaFrictionless });
    await payNow(f);
    ({ transactionId } = await expectConfirmation(f, { amount: '$500.00' }));
    await close();
  }

  // 3. The batch closes (the sandbox's ccsettle), so part of the payment can be given back.
  const s = await fetch(`${product.baseUrl}/api/dev/gateway/settle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transactionId }),
  });
  assert.equal(s.status, 200, await s.text());

  // 4. Billing refunds $120.50 from the link page.
  {
    const { page, close } = await staff(billing, { label: 'billing' });
    await page.goto(`${product.baseUrl}/console/links/${link.id}`);
    await page.getByRole('heading', { level: 1, name: 'Lucia Refundtest' }).waitFor();
    const card = page.getByRole('region', { name: 'Refunds and evidence' });
    await card.getByText('No refunds yet.').waitFor();
    const evidence = card.getByRole('link', { name: 'Download evidence pack (PDF)' });
    assert.match((await evidence.getAttribute('href')) ?? '', new RegExp(`/api/admin/links/${link.id}/evidence\\.pdf`));
    // Keyboard: open with Enter, submit each step with Enter.
    await card.getByRole('button', { name: 'Refund…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Refund or void this payment' });
    await dialog.waitFor();
    await expectAccessible(page, 'console refund dialog (en)');
    // The reason is required; an amount over what is left is refused in the page.
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByText('Enter the reason for the refund.').waitFor();
    await dialog.getByLabel('Amount to refund (US dollars)').fill('600');
    await dialog.getByLabel(/^Reason/).fill('Consultation fee returned (surgery rescheduled)');
    await dialog.getByRole('button', { name: 'Review' }).click();
    await dialog.getByText('At most $500.00 can be refunded.').waitFor();
    await dialog.getByLabel('Amount to refund (US dollars)').fill('120.50');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Confirm the refund' });
    await confirm.getByText(/Refund \$120\.50 to the card/).waitFor();
    await confirm.getByRole('button', { name: 'Refund $120.50' }).focus();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    await card.getByText('$120.50 was refunded to the card.').waitFor();
    await card.getByText('$120.50 of $500.00 refunded').waitFor();
    await card.getByText('Partially refunded').waitFor();
    await card.getByText(/Refund \$120\.50 · Done/).waitFor();
    await expectAccessible(page, 'console link money card (en)');

    // What a billing manager reads (issue 29, item 4): the card by its brand's name, the phone as people write it,
    // who paid, and on a paid link the one action there is: Resend receipt.
    const paymentCard = page.getByRole('region', { name: 'Payment', exact: true });
    await paymentCard.getByText(/^Visa •••• \d{4}$/).waitFor();
    await paymentCard.getByText('Lucia Refundtest (the patient)').waitFor();
    const n = link.phone.slice(2);
    await page
      .getByRole('region', { name: 'Patient', exact: true })
      .getByText(`(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`, { exact: true })
      .waitFor();
    assert.equal(await page.getByText(link.phone).count(), 0, 'no E.164 phone on the page');
    const actions = page.getByRole('region', { name: 'Actions' });
    await actions.getByRole('button', { name: 'Resend receipt' }).click();
    const ask = page.getByRole('dialog', { name: 'Resend the payment receipt?' });
    await expectAccessible(page, 'console resend receipt dialog (en)');
    await ask.getByRole('button', { name: 'Resend receipt' }).click();
    await ask.waitFor({ state: 'hidden' });
    await actions.getByRole('status').filter({ hasText: 'The receipt was sent again to' }).waitFor();

    // The payments screen shows the same state, and the bookkeeping exports.
    await page.goto(`${product.baseUrl}/console/payments`);
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await settled(page);
    const row = page.getByRole('row').filter({ hasText: 'Lucia Refundtest' });
    await row.getByText('Partially refunded').waitFor();
    await row.getByRole('button', { name: 'Refund… Lucia Refundtest' }).waitFor();
    await row.getByText(/Visa •••• \d{4}/).waitFor();
    // The payments CSV: refunded and net at the end, the status still approved.
    const paymentsCsv: string = await page.evaluate(
      async (href) => (await fetch(href!)).text(),
      await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href'),
    );
    const [head, ...csvLines] = paymentsCsv.split('\r\n');
    const cols = head!.split(',');
    const mine = csvLines.find((l) => l.startsWith(`${link.id},`))!.split(',');
    const col = (name: string) => mine[cols.indexOf(name)];
    assert.deepEqual(cols.slice(-2), ['refund_state', 'net_usd'], 'refunds at the end of the columns');
    assert.equal(col('status'), 'approved');
    assert.equal(col('amount_usd'), '500.00');
    assert.equal(col('refunded_usd'), '120.50');
    assert.equal(col('refund_state'), 'partially_refunded');
    assert.equal(col('net_usd'), '379.50');
    const csv = page.getByRole('link', { name: 'Refunds CSV' });
    const csvText = await page.evaluate(async (href) => (await fetch(href!)).text(), await csv.getAttribute('href'));
    assert.match(csvText, new RegExp(`${link.id},return,120\\.50,succeeded`), 'the refunds CSV has the refund');
    await page.getByText('No second charges are waiting.').waitFor();
    await expectAccessible(page, 'console payments with money tools (en)');
    await close();
  }

  // 5. The patient's refund receipt is in the outbox.
  const receipt = await outbox.waitFor({
    to: link.email,
    channel: 'email',
    match: (m) => /refund/i.test(m.subject ?? '') && messageText(m).includes('$120.50'),
    timeout: 30_000,
  });
  assert.doesNotMatch(messageText(receipt), /rescheduled/, 'the reason stays internal');

  // 6. The receiver got payment.refunded, signed with the secret shown once.
  const event = await eventually(
    () => received.find((r) => (JSON.parse(r.body) as { type: string }).type === 'payment.refunded'),
    { timeout: 30_000, message: 'a payment.refunded delivery at the receiver' },
  );
  assert.ok(verifyPaylink(secret, event.body, event.signature), 'the signature verifies as docs/money.md says');
  assert.ok(!verifyPaylink('whsec_wrong', event.body, event.signature), 'a wrong secret does not verify');
  const body = JSON.parse(event.body) as { id: string; data: { linkId: string } };
  assert.equal(body.data.linkId, link.id);

  // 7. The admin sees the delivery (status code, time) and replays it, on a phone in Spanish.
  {
    const { page } = await staff(adminUser, { label: 'admin', lng: 'es', viewport: PHONE });
    await page.goto(`${product.baseUrl}/console/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    const endpoint = page.getByTestId('webhook-endpoint').filter({ hasText: receiverUrl });
    await endpoint.getByRole('button', { name: 'Ver entregas' }).click();
    const delivery = endpoint.getByTestId('webhook-delivery').filter({ hasText: body.id });
    await delivery.getByText('Entregado').waitFor();
    assert.equal((await delivery.getByTestId('attempt-status').first().textContent())?.trim(), '200');
    await expectAccessible(page, 'console webhook deliveries (es, phone)');
    const before = received.length;
    await delivery.getByRole('button', { name: new RegExp(`^Reenviar payment.refunded ${body.id}`) }).click();
    await endpoint.getByText('Reenviado: se puso en cola una nueva entrega.').waitFor();
    await eventually(() => received.slice(before).find((r) => r.body === event.body), {
      timeout: 30_000,
      message: 'the replayed event (same bytes) at the receiver',
    });
  }
});

test('a coordinator sees no refund action and no money tools', async ({ product, admin, staff }) => {
  const link = await admin.createLink();
  const { page } = await staff('demo');
  await page.goto(`${product.baseUrl}/console/links/${link.id}`);
  await page.getByRole('region', { name: 'Timeline' }).waitFor();
  assert.equal(await page.getByRole('region', { name: 'Refunds and evidence' }).count(), 0);
  await page.goto(`${product.baseUrl}/console/payments`);
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Bookkeeping exports (CSV)' }).count(), 0);
  assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).count(), 0);
});
