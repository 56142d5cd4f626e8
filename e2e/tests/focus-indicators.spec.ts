import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import {
  choosePayment,
  expectRoute,
  openLink,
  sayRe,
  signingFrame,
  signInBySms,
  SIGN_UI,
  submitPatientInfo,
  tabTo,
  type Flow,
} from '../support/flows.js';
import { test } from '../support/test.js';

/**
 * Focus indicators (WCAG 2.4.11 / 1.4.11, issue 29 item 7): a control reached with the Tab key shows a solid outline
 * at least 2 px wide whose colour has 3:1 contrast against what it is drawn on. The outline is offset from the
 * control, so "what it is drawn on" is the first opaque background of the control's parent and up.
 */
interface Ring {
  style: string;
  width: number;
  ratio: number;
  color: string;
  background: string;
}

async function focusRing(control: Locator): Promise<Ring> {
  return control.evaluate((el) => {
    const rgba = (s: string): number[] => {
      const m = s.match(/[\d.]+/g) ?? [];
      const [r = 0, g = 0, b = 0, a = 1] = m.map(Number);
      return [r, g, b, s.startsWith('rgba') || m.length > 3 ? a : 1];
    };
    const win = el.ownerDocument.defaultView as Window;
    let background = [255, 255, 255, 1];
    for (let n = el.parentElement; n; n = n.parentElement) {
      const c = rgba(win.getComputedStyle(n).backgroundColor);
      if (c[3] === 1) {
        background = c;
        break;
      }
    }
    const cs = win.getComputedStyle(el);
    const o = rgba(cs.outlineColor);
    // A translucent outline shows blended with the background behind it.
    const alpha = o[3] ?? 1;
    const seen = [0, 1, 2].map((i) => (o[i] ?? 0) * alpha + (background[i] ?? 255) * (1 - alpha));
    const lum = (c: number[]) => {
      const [r = 0, g = 0, b = 0] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const hi = Math.max(lum(seen), lum(background));
    const lo = Math.min(lum(seen), lum(background));
    return {
      style: cs.outlineStyle,
      width: parseFloat(cs.outlineWidth) || 0,
      ratio: (hi + 0.05) / (lo + 0.05),
      color: cs.outlineColor,
      background: `rgb(${background.slice(0, 3).join(', ')})`,
    };
  });
}

async function expectVisibleFocus(page: Page, control: Locator, what: string): Promise<void> {
  await tabTo(page, control);
  const ring = await focusRing(control);
  const seen = `${what}: ${ring.style} ${ring.width}px ${ring.color} on ${ring.background} (${ring.ratio.toFixed(2)}:1)`;
  assert.equal(ring.style, 'solid', seen);
  assert.ok(ring.width >= 2, seen);
  assert.ok(ring.ratio >= 3, seen);
}

test('focus indicators: solid, 2 px or more, 3:1 in the console, the patient app and the signing frame', async ({
  product,
  admin,
  page,
  openSession,
}) => {
  // The console: Bootstrap's rings are box-shadows of 1.4-2.1:1 with no outline.
  const { page: consolePage, close } = await openSession({ viewport: { width: 1280, height: 800 } });
  await consolePage.goto(`${product.baseUrl}/console/sign-in`);
  await consolePage.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await expectVisibleFocus(consolePage, consolePage.getByLabel('E-mail'), 'console e-mail field');
  await expectVisibleFocus(consolePage, consolePage.getByRole('button', { name: 'Sign in' }), 'console Sign in button');
  await close();

  // The patient app, then the signing frame of its first document (keyboard from the start: Tab, Enter).
  const link = await admin.createLink({ firstName: 'Rosa', lastName: 'Molina' });
  const f: Flow = { page, product, link, lng: 'en', keyboard: true };
  await openLink(f);
  await expectVisibleFocus(page, page.getByRole('button', { name: sayRe('en', 'auth.getCode') }), 'patient Get code');
  await signInBySms(f);
  await choosePayment(f, { type: 1, source: 1, amount: '1000' });
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  const frame = signingFrame(f);
  const toggle = frame.getByRole('button', { name: SIGN_UI.methodType });
  await toggle.waitFor();
  await frame.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 });
  await expectVisibleFocus(page, frame.getByLabel(SIGN_UI.signerName), 'signing frame name field');
  await expectVisibleFocus(page, toggle, 'signing frame "Type my signature"');
});
