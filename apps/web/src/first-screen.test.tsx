import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fs from 'node:fs';
import path from 'node:path';
import { delay } from 'msw';
import { renderFirstScreen, type FirstScreenValues } from '@paylink/shared';
import { firstScreenTemplates, firstScreenTexts } from './first-screen';
import { HttpResponse, http, server, setupMsw, testConfig } from './test/msw';
import { LINK_ID, renderApp } from './test/render-app';

// The page as the server sends it for /auth?id=<link> with its first screen: the method and the masked phone in the
// head (read when the sign-in page's module loads), the screen itself put in by each test. The e-mail tests answer
// the options with 'email': the method's meta is only a hint, the answer decides.
vi.hoisted(() => {
  window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv12');
  const meta = document.createElement('meta');
  meta.name = 'paylink-sign-in';
  meta.content = 'sms';
  meta.setAttribute('data-phone', '(***) ***-4567');
  document.head.append(meta);
});

setupMsw();

const templates = (lng: string) =>
  firstScreenTemplates(
    firstScreenTexts(
      JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', lng, 'common.json'), 'utf8')),
    ),
    lng,
  );
const PHONE = '(***) ***-4567';
const values: FirstScreenValues = { practice: testConfig.practice, phone: PHONE };

/**
 * A canonical form of an element, for "looks the same": tags, attributes sorted, text; without what the two differ
 * in and nobody sees: ids and what points at them (React's useId against fixed ones), the screen's own marks.
 */
const IGNORED = new Set(['id', 'for', 'aria-describedby', 'data-first-screen', 'data-first-screen-action', 'method']);
function canonical(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  const attrs = [...node.attributes]
    .filter((a) => !IGNORED.has(a.name))
    .map((a) => `${a.name}="${a.name === 'class' ? a.value.trim().split(/\s+/).sort().join(' ') : a.value}"`)
    .sort();
  const value = node instanceof HTMLInputElement ? ` [value=${node.value}]` : '';
  return `<${node.tagName.toLowerCase()} ${attrs.join(' ')}${value}>${[...node.childNodes].map(canonical).join('')}</>`;
}

/** The server's screen, put before #root as the server writes it. */
function serveFirstScreen(lng: string, method: 'sms' | 'email') {
  const html = renderFirstScreen({ [lng]: templates(lng) }, lng, method === 'sms' ? 'authSms' : 'authEmail', values);
  document.body.insertAdjacentHTML('afterbegin', html!);
  return document.getElementById('paylink-boot')!;
}

function answer(method: 'sms' | 'email') {
  server.use(
    http.get('*/api/auth/options', async () => {
      await delay(50);
      return HttpResponse.json({ method, captchaSiteKey: null });
    }),
    // Never asked: the page has the phone from its HTML.
    http.get(`*/api/patients/${LINK_ID}/notoken`, () => HttpResponse.text('asked again', { status: 500 })),
  );
}

afterEach(() => {
  document.getElementById('paylink-boot')?.remove();
});

describe("/auth's first screen as static HTML is the page React renders (decision 0226)", () => {
  it.each([
    ['en', 'sms'],
    ['en', 'email'],
    ['es', 'sms'],
    ['es', 'email'],
  ] as const)('%s, %s: the same elements, attributes and texts', async (lng, method) => {
    const expected = canonical(serveFirstScreen(lng, method));
    document.getElementById('paylink-boot')!.remove();
    answer(method);
    const { container } = await renderApp(`/auth?id=${LINK_ID}`, { lng });
    await screen.findByRole('button', { name: method === 'sms' ? /verif/i : /(email|enlace)/i });
    await screen.findByText(testConfig.practice.name);
    expect(canonical(container.querySelector('.app-shell')!)).toBe(expected);
  });

  it('the app keeps the screen while it loads, then replaces it with its own: one form, one h1', async () => {
    const served = serveFirstScreen('en', 'sms');
    answer('sms');
    await renderApp(`/auth?id=${LINK_ID}`);
    // While the options load, the server's screen is the page; React shows nothing of its own yet.
    expect(served.isConnected).toBe(true);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(served.isConnected).toBe(false));
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByDisplayValue(PHONE)).toBeVisible();
    expect(document.querySelectorAll('form')).toHaveLength(1);
    expect(screen.queryByRole('status', { name: /loading/i })).toBeNull();
  });

  it('what was typed before the app took over, and the focus, carry over to its field', async () => {
    const served = serveFirstScreen('en', 'email');
    const input = served.querySelector<HTMLInputElement>('input[type=email]')!;
    input.focus();
    await userEvent.type(input, 'pat@example.com');
    answer('email');
    await renderApp(`/auth?id=${LINK_ID}`);
    await waitFor(() => expect(served.isConnected).toBe(false));
    const field = screen.getByLabelText('Email address');
    expect(field).toHaveValue('pat@example.com');
    await waitFor(() => expect(field).toHaveFocus());
  });
});
