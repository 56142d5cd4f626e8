import assert from 'node:assert/strict';
import {
  choosePayment,
  expectRoute,
  nextButton,
  nextStep,
  openLink,
  signDocumentStep,
  signInBySms,
  submitPatientInfo,
  uploadIdStep,
  type Flow,
} from '../support/flows.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Leaving and coming back: a reload mid-flow stays on the current step with the patient's choices, and the same link
 * opened in a second browser resumes (the continue check) at the first step not completed.
 */
// The resend cooldown is not the subject here: two browsers ask for codes for one link within seconds.
test.use({ productEnv: { OTP_RESEND_COOLDOWN_SECONDS: '0' } });

test('reload mid-flow, then a second browser resumes at the right step', async ({
  product,
  admin,
  page,
  openSession,
}) => {
  const link = await admin.createLink({ firstName: 'Lena', lastName: 'Novak' });
  const f: Flow = { page, product, link, lng: 'en' };
  await openLink(f);
  await signInBySms(f);
  await choosePayment(f, { type: 1, source: 1, amount: '400' });
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);
  await expectRoute(page, '/patientiddocs');

  // Reload: same step, still signed in, Next waiting for the upload.
  await page.reload();
  await expectRoute(page, '/patientiddocs');
  await nextButton(f).waitFor();
  assert.ok(await nextButton(f).isDisabled());

  // A second browser (say, the patient's laptop): sign in again, land where the first one stopped.
  const second = await openSession({ label: 'second browser', viewport: PHONE });
  const g: Flow = { page: second.page, product, link, lng: 'en' };
  await openLink(g);
  await signInBySms(g, { landing: '/patientiddocs' });
  await uploadIdStep(g, { seed: 7 });
  await nextStep(g);
  await expectRoute(second.page, '/patientcontract');
  await second.close();

  // The first browser, reloaded, follows the server (the continue check): the ID step was done elsewhere.
  await page.reload();
  await expectRoute(page, '/patientcontract');
  await nextButton(f).waitFor();
  const saved = await admin.getLink(link.id);
  assert.equal(saved.progress.currentRoutePath, '/patientcontract');
  assert.equal(saved.payment?.amount, 400);
});
