import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import {
  expectConfirmation,
  expectNoHorizontalScroll,
  fillCard,
  openLink,
  payNow,
  say,
  sayRe,
  signInBySms,
  type Flow,
} from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 28, a returning patient (decision 0215): weeks after the deposit of a plan link, the patient opens their link
 * again on a phone. Sign-in stays open while the plan has charges to come; the link ends on the steps-complete page,
 * which now lists the charges still to come, the card they go on, and the way to change it.
 */
test.use({ productEnv: { OTP_RESEND_COOLDOWN_SECONDS: '0' } });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

for (const lng of ['en', 'es'] as const) {
  test(`${lng}: a returning patient of a paid plan link sees the charges to come and can change the card`, async ({
    product,
    admin,
    page,
    openSession,
  }) => {
    const firstDueOn = day(45);
    const link = await admin.createLink({
      language: lng,
      plan: { total: 2000, kind: 'installments', count: 2, every: 'month', firstDueOn },
    });
    const f: Flow = { page, product, link, lng };
    await depositToPaymentPage(f);
    await fillCard(f, { number: '4000000000000002' });
    await page.getByRole('checkbox', { name: sayRe(lng, 'payment:plan.agree') }).check();
    await payNow(f);
    await expectConfirmation(f, { amount: '$500.00' });

    const phone = await openSession({ viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true, label: 'phone' });
    const p: Flow = { page: phone.page, product, link, lng };
    await openLink(p);
    await signInBySms(p, { landing: '/stepscomplete' });
    await phone.page.getByRole('heading', { level: 1, name: say(lng, 'errors.stepsCompleteTitle') }).waitFor();
    const toCome = phone.page.getByRole('region', { name: say(lng, 'planToCome.heading') });
    await toCome.waitFor();
    const items = await toCome.getByRole('listitem').allInnerTexts();
    assert.equal(items.length, 2, `two charges to come: ${items.join(' | ')}`);
    for (const item of items) assert.match(item, /\$750\.00$/, 'each instalment is half of the $1,500.00 balance');
    assert.match(await toCome.innerText(), /0002/, 'the card the charges go on');
    await expectNoHorizontalScroll(phone.page);
    await expectAccessible(phone.page, `returning patient, plan to come (${lng})`);
    await toCome.getByRole('link', { name: say(lng, 'planToCome.changeCard') }).click();
    await phone.page.getByRole('heading', { level: 1, name: say(lng, 'payment:updateCard.title') }).waitFor();
    await phone.close();
  });
}
