import assert from 'node:assert/strict';
import { samplePatient } from '../../apps/server/src/seed/sample-links.js';
import type { TestLink } from '../support/admin.js';
import type { Flow } from '../support/flows.js';
import { expectPaidInConsole, payDepositWithChallenge } from '../support/journeys.js';
import { SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * The README's quick start, followed literally (issue 25): `npm start` in this checkout with nothing set but free
 * ports and a fresh data dir. A new user opens the demo link it prints, pays a deposit on a 390 px phone, and the demo
 * coordinator it prints sees the link paid in the console. Run alone (`npm run test:quick-start`): `npm start`
 * rebuilds what the other browser files' products are served from.
 */
test.use({ productKind: 'quick-start' });

test('npm start: the printed demo link takes a deposit with ID upload and 3-D Secure, and the console shows it paid', async ({
  product,
  openSession,
  staff,
}) => {
  const printed = /Patient pays \(deposit\)\s+active\s+sms\s+\S+\s+(http\S+\/auth\?id=([\w-]+))/.exec(product.output());
  assert.ok(printed, `npm start printed the demo deposit link:\n${product.output().slice(-3000)}`);
  const [, url, id] = printed;
  const link: TestLink = {
    id: id!,
    url: url!,
    phone: samplePatient.phone,
    email: samplePatient.email,
    payorEmail: undefined,
    input: samplePatient,
  };
  const { page } = await openSession({ label: 'patient', viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true });
  const f: Flow = { page, product, link, lng: 'en' };
  const { transactionId } = await payDepositWithChallenge(f);

  // The coordinator npm start printed, at a desktop.
  const coordinator = await staff('demo', { label: 'coordinator' });
  await expectPaidInConsole(coordinator.page, f, { transactionId, amount: '$500.00', last4: '0077' });
});
