// The console while a patient moves (issue 29, items 1 and 10). A billing user watches the board: when a poll finds
// that a patient reached a new step, a polite status region (in the page from the start, silent on the first load)
// says so. Then the billing user keeps the paid link's page open across several polls: staff reads are audited but
// are not events, so the timeline keeps its number of entries and the page its height.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  CARDS,
  choosePayment,
  completeDocumentSteps,
  expectConfirmation,
  fillCard,
  openLink,
  payNow,
  signInBySms,
  submitPatientInfo,
  type Flow,
} from '../support/flows.js';
import { expect, test } from '../support/test.js';

/** Waits for the console's next live-update poll to be answered (GET /api/admin/board/changes). */
const nextPoll = (page: Page) => page.waitForResponse((r) => r.url().includes('/api/admin/board/changes'));

test('the board announces a patient reaching a step; an open paid link page does not grow with reads', async ({
  product,
  admin,
  openSession,
  staff,
}) => {
  const link = await admin.createLink({ firstName: 'Ana', lastName: 'Diaz' });
  const { page } = await staff('billing', { viewport: { width: 1280, height: 900 } });
  await page.locator(`tr[data-link-id="${link.id}"]`).waitFor();
  const announcer = page.getByRole('status').and(page.getByTestId('board-announcer'));
  await nextPoll(page);
  assert.equal((await announcer.textContent())?.trim(), '', 'nothing is announced on the first load');

  // The patient confirms their details: the board's next poll moves the row to the invoice step and says so.
  const patient = await openSession({ label: 'patient' });
  const f: Flow = { page: patient.page, product, link, lng: 'en' };
  await openLink(f);
  await signInBySms(f);
  await choosePayment(f, { type: 1, source: 1, amount: '500' });
  await submitPatientInfo(f);
  await expect(announcer).toHaveText('Ana Diaz reached Invoice.', { timeout: 30_000 });

  // The patient signs, uploads and pays.
  await completeDocumentSteps(f);
  await fillCard(f, { number: CARDS.visaFrictionless });
  await payNow(f);
  await expectConfirmation(f, { amount: '$500.00' });
  await patient.close();

  // The billing user opens the paid link and keeps it open across several polls.
  await page.goto(`${product.baseUrl}/console/links/${link.id}`);
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await timeline.locator('[data-action="payment.approved"]').waitFor();
  // After the payment the workers e-mail the practice (its creator wants "paid" notes by default) and each message gets
  // its final delivery status; the messages card polls on its own while one waits (no audit row marks a hand-over),
  // so on a loaded machine it could still be catching up once the timeline is at rest. Let those land first.
  await timeline.locator('[data-action="staff.notified"]').waitFor({ timeout: 90_000 });
  const final = ['delivered', 'undelivered', 'failed', 'accepted', 'refused'];
  await expect(page.locator(`[data-delivery]${final.map((d) => `:not([data-delivery="${d}"])`).join('')}`)).toHaveCount(
    0,
    { timeout: 60_000 },
  );
  // The outbox's deliveries after the payment (receipt, staff e-mail) are events: let them land first. A poll that
  // names no change of this link twice running means the link is at rest; reads counted as changes never let it rest.
  for (let quiet = 0, polls = 0; quiet < 2 && polls < 12; polls++) {
    const changes = (await (await nextPoll(page)).json()) as { linkIds: string[] };
    quiet = changes.linkIds.includes(link.id) ? 0 : quiet + 1;
  }
  await nextPoll(page);
  const actions = () => timeline.locator('li').evaluateAll((li) => li.map((e) => e.getAttribute('data-action')));
  const before = await actions();
  const height = await page.evaluate(() => document.scrollingElement!.scrollHeight);
  for (let i = 0; i < 3; i++) await nextPoll(page);
  // Whatever a poll refetched has been drawn before the next poll is asked.
  await nextPoll(page);
  assert.deepEqual(await actions(), before, 'the timeline has the same entries as when the page was at rest');
  assert.equal(await timeline.locator('[data-action="admin.link_viewed"]').count(), 0, 'no "Viewed the link" event');
  assert.equal(await page.evaluate(() => document.scrollingElement!.scrollHeight), height, 'the page stays as long');
});
