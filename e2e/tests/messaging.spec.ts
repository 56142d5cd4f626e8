import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import { expectRoute } from '../support/flows.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

/**
 * Issue 14: a coordinator sends a link by SMS; the sandbox outbox shows it delivered; the patient signs in and stops,
 * and with reminder durations in seconds the stalled link gets a reminder naming the step left.
 */
test.use({
  productEnv: {
    REMINDER_UNOPENED_AFTER: 'off',
    REMINDER_STALLED_AFTER: '4s',
    REMINDER_BEFORE_EXPIRY: 'off',
    REMINDER_QUIET_HOURS: 'off',
    REMINDER_MIN_GAP: '1h',
    REMINDER_POLL_INTERVAL: '1s',
  },
});

test('coordinator sends a link by SMS; the outbox shows it delivered; a stalled link is reminded of its step', async ({
  product,
  admin,
  outbox,
  openSession,
  staff,
  patient,
}) => {
  const link = await admin.createLink({ firstName: 'Rosa', lastName: 'Mendez', signInMethod: 'sms' });
  // The coordinator sends it from the link's page in the console.
  {
    const { page, close } = await staff('demo');
    await page.goto(`${product.baseUrl}/console/links/${link.id}`);
    await page.getByRole('heading', { level: 1, name: 'Rosa Mendez' }).waitFor();
    await page.getByRole('button', { name: 'Send by SMS' }).click();
    await page.getByText('Sent by SMS. It is in the outbox.').waitFor();
    const messages = page.getByRole('list', { name: 'Messages sent for this link' });
    await messages.locator('li', { hasText: 'Link sent · SMS' }).getByText('Delivered').waitFor();
    // Sent once: the buttons now say resend.
    await page.getByRole('button', { name: 'Resend · SMS' }).waitFor();
    await close();
  }
  {
    const { page, close } = await openSession({ label: 'outbox' });
    await page.goto(`${product.baseUrl}/dev/outbox?to=${encodeURIComponent(link.phone)}`);
    const article = page.locator('article.msg', { hasText: 'Here is your personal link' });
    await eventually(
      async () => {
        await page.reload();
        return (await article
          .locator('[data-delivery]')
          .getAttribute('data-delivery')
          .catch(() => null)) === 'delivered'
          ? true
          : undefined;
      },
      { message: 'the link SMS shown as delivered in the sandbox outbox' },
    );
    const text = await article.locator('pre').innerText();
    assert.match(text, /Bella Vista Plastic Surgery: Hello Rosa, .*Here is your personal link/);
    assert.ok(text.includes(link.url), 'the SMS carries the personal link');
    assert.match(text, /Reply STOP to opt out\.$/);
    await close();
  }

  // The patient opens the link from the SMS, signs in, and stops at the first step.
  {
    const { page, close } = await patient(link, { viewport: PHONE, isMobile: true, hasTouch: true });
    await expectRoute(page, '/patientinfo');
    await close();
  }
  const reminder = await outbox.waitFor({
    to: link.phone,
    channel: 'sms',
    match: /a reminder/,
    timeout: 60_000,
  });
  assert.match(reminder.text, /Please confirm your details to get started\./);
  assert.ok(reminder.text.includes(link.url));

  {
    const { page, close } = await openSession({ label: 'outbox' });
    await page.goto(`${product.baseUrl}/dev/outbox?to=${encodeURIComponent(link.phone)}`);
    await page.getByText('Please confirm your details to get started.').first().waitFor();
    await close();
  }
  const messages = await admin.request<{ messages: { kind: string }[]; reminders: { sent: number } }>(
    'GET',
    `/links/${link.id}/messages`,
  );
  assert.deepEqual(
    messages.messages.map((m) => m.kind),
    ['link-send', 'signin-code', 'link-reminder'],
  );
  assert.equal(messages.reminders.sent, 1);

  // The console's link page: the reminder in the messages and, naming the step, in the timeline; then switched off.
  {
    const { page, close } = await staff('demo');
    await page.goto(`${product.baseUrl}/console/links/${link.id}`);
    await page
      .getByRole('list', { name: 'Messages sent for this link' })
      .locator('li', { hasText: 'Reminder · SMS' })
      .waitFor();
    await page
      .getByRole('list', { name: 'Timeline' })
      .getByText('Sent a reminder by SMS (next step: Patient information)')
      .waitFor();
    await page.getByText('Reminders sent: 1').waitFor();
    const toggle = page.getByRole('switch', { name: 'Send reminders for this link' });
    assert.ok(await toggle.isChecked());
    await toggle.uncheck();
    await page.getByRole('list', { name: 'Timeline' }).getByText('Turned reminders off').waitFor();
    await eventually(async () => !(await toggle.isChecked()), { message: 'the switch shows reminders off' });
    await expectAccessible(page, 'console link page with messages');
    await close();
  }
  const after = await admin.request<{ reminders: { enabled: boolean } }>('GET', `/links/${link.id}/messages`);
  assert.equal(after.reminders.enabled, false);
});
