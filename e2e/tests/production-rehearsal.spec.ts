import type { StaffSession } from '../support/staff-session.js';
import { consoleSignIn } from '../support/console.js';
import type { Flow } from '../support/flows.js';
import { expectPaidInConsole, payDepositWithChallenge } from '../support/journeys.js';
import type { Rehearsal } from '../support/rehearsal.js';
import { SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * The production rehearsal (issue 25, decision 0189): the product in PAYLINK_MODE=production with its real adapters
 * — Twilio, SMTP, Turnstile, Converge with 3-D Secure, S3 — each at a local stand-in that speaks the provider's wire
 * protocol. The same deposit as the quick start: the code a practice runs in production, on every run.
 */
test.use({ productKind: 'rehearsal' });

test('production mode with real adapters: a deposit with ID upload and 3-D Secure, the receipt by SMTP, paid in the console', async ({
  product,
  admin,
  openSession,
}) => {
  const { rehearsal, owner } = product as typeof product & { rehearsal: Rehearsal; owner: StaffSession };
  const link = await admin.createLink({ firstName: 'Rosa', lastName: 'Medina', signInMethod: 'sms' });
  const { page } = await openSession({ label: 'patient', viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true });
  const f: Flow = { page, product, link, lng: 'en' };
  // The sign-in code went out through Twilio's Messages API (Basic auth) and its signed status callbacks came back.
  const { transactionId } = await payDepositWithChallenge(f);
  const code = rehearsal.stand.twilio.messages.find((m) => m.to.replace(/\D/g, '').endsWith(link.phone.slice(-10)));
  if (!code) throw new Error('the sign-in SMS went through the Twilio stand-in');
  await rehearsal.stand.twilio.waitForCallbacks(code.sid);

  // A coordinator the owner added signs in to the console with a password and an authenticator code.
  const coordinator = await rehearsal.addStaff(product, owner, { role: 'coordinator' });
  const { page: console } = await openSession({ label: 'coordinator' });
  const totp = await coordinator.nextCode();
  await consoleSignIn(console, product, coordinator, { code: () => totp });
  await expectPaidInConsole(console, f, { transactionId, amount: '$500.00', last4: '0077' });
});
