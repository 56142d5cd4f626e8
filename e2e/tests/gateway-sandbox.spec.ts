import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { createLink, type TestLink } from '../support/admin.js';
import { idCardPng } from '../support/fixtures.js';
import { CARDS, futureExpiry } from '../support/flows.js';
import { smsCode, waitForMessage } from '../support/outbox.js';
import type { RunningProduct } from '../support/server.js';
import { test } from '../support/test.js';

/**
 * The sandbox gateway's browser scripts (Checkout.js and the 3DS2 SDK stand-ins) driven in Chromium from a tiny page
 * on the app's origin, with the real server behind them: session token from POST /api/converge, the 3-D Secure
 * lightbox answered by pressing its buttons, and the approval verified by PUT /api/linkpaymenthistory.
 */
test.use({ viewport: { width: 1024, height: 768 } });

const API_KEY = 'paylink-sandbox-api-key';

async function api(
  product: RunningProduct,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
) {
  const r = await fetch(`${product.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-api-key': API_KEY,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: r.status, text: await r.text() };
}

/** Signs in by SMS through the API and records a $500 deposit choice and the step list. */
async function linkReadyToPay(
  product: RunningProduct,
): Promise<{ link: TestLink; token: string; paymentStepId: number }> {
  const link = await createLink(product, { signInMethod: 'sms' });
  const sent = await api(product, '/api/auth/sms/send', { method: 'POST', body: { linkId: link.id } });
  assert.equal(sent.status, 200, sent.text);
  const sms = await waitForMessage(product, { to: link.phone, channel: 'sms' });
  const verified = await api(product, '/api/auth/sms/verify', {
    method: 'POST',
    body: { linkId: link.id, code: smsCode(sms) },
  });
  assert.equal(verified.status, 200, verified.text);
  const { token } = JSON.parse(verified.text) as { token: string };
  const choice = await api(product, '/api/linkpaymenthistory', {
    method: 'POST',
    token,
    body: { linkId: link.id, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 },
  });
  assert.equal(choice.status, 200, choice.text);
  const steps = await api(
    product,
    `/api/linksteps/script?linkId=${link.id}&paymentTypeId=1&paymentSourceId=1&paymentAmount=500`,
    {
      method: 'POST',
      token,
    },
  );
  assert.equal(steps.status, 200, steps.text);
  const list = JSON.parse(steps.text) as { linkStepId: number; routePath: string; documentUrl: string | null }[];
  // No token before the documents are signed (issue 10): sign them through the signing service's own HTTP API.
  const signer = `${link.input.firstName} ${link.input.lastName}`;
  for (const step of list.filter((s) => s.documentUrl)) {
    const doc = new URL(step.documentUrl!, product.signOrigin);
    const base = `${doc.origin}${doc.pathname.replace(/\/$/, '')}`;
    if (step.routePath === '/patientiddocs') {
      for (const [i, side] of (['front', 'back'] as const).entries()) {
        const png = idCardPng(i + 1);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png.buffer)], { type: png.mimeType }), png.name);
        const up = await fetch(`${base}/files?side=${side}`, { method: 'POST', body: form });
        assert.equal(up.status, 201, await up.text());
      }
    }
    // The signer agrees to the document they were shown: its hash, as the signing page sends it.
    const pdf = step.routePath === '/patientiddocs' ? null : await fetch(`${base}/document.pdf?lang=en`);
    const documentSha256 = pdf
      ? createHash('sha256')
          .update(Buffer.from(await pdf.arrayBuffer()))
          .digest('hex')
      : null;
    const done = await fetch(`${base}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lang: 'en', signerName: signer, method: 'type', typedSignature: signer, documentSha256 }),
    });
    assert.equal(done.status, 200, await done.text());
    const next = await api(
      product,
      `/api/linksteps?linkId=${link.id}&linkStepId=${step.linkStepId}&LinkStepStatusId=4`,
      {
        method: 'PUT',
        token,
      },
    );
    assert.equal(next.status, 200, next.text);
  }
  const paymentStepId = list.find((s) => s.routePath === '/paymentauthorization')!.linkStepId;
  return { link, token, paymentStepId };
}

async function sessionToken(product: RunningProduct, token: string): Promise<string> {
  const r = await api(product, '/api/converge?amount=500', { method: 'POST', token });
  assert.equal(r.status, 200, r.text);
  return r.text;
}

/**
 * A page of the app (its real CSP applies) with the gateway's two scripts added, as the payment page loads them.
 * (A page faked with route.fulfill would not count as loopback, and Chromium would block its calls to the gateway.)
 */
async function gatewayPage(product: RunningProduct, page: Page): Promise<{ cardRequests: string[] }> {
  const cardRequests: string[] = [];
  page.on('request', (req) => {
    if ((req.postData() ?? '').includes('40000000000000') || req.url().includes('40000000000000')) {
      cardRequests.push(new URL(req.url()).origin);
    }
  });
  await page.goto(`${product.baseUrl}/notauthorized`);
  // tsx keeps function names with a __name helper that evaluated code does not have.
  await page.evaluate('window.__name = (f) => f');
  await page.addScriptTag({ url: `${product.gatewayOrigin}/hosted-payments/Checkout.js` });
  await page.addScriptTag({ url: `${product.gatewayOrigin}/3ds2/web-sdk.js` });
  await page.waitForFunction(() => 'ConvergeEmbeddedPayment' in window && 'Elavon3DSWebSDK' in window);
  return { cardRequests };
}

type Outcome = { stage: string; data: Record<string, string> };

/** The browser flow of CONTRACTS.md, run in the page: getEFSToken → web3dsFlow → pay (when 3DS passed). */
function runFlow(
  product: RunningProduct,
  page: Page,
  o: { token: string; card: string; expiry: string },
): Promise<Outcome> {
  return page.evaluate(
    ({ token, card, expiry, base }) =>
      new Promise<Outcome>((resolve) => {
        const w = window as unknown as {
          ConvergeEmbeddedPayment: {
            getEFSToken: (d: object, cb: Record<string, (r: Record<string, string>) => void>) => void;
            pay: (d: object, cb: Record<string, (r: Record<string, string>) => void>) => void;
          };
          Elavon3DSWebSDK: new (o: object) => { web3dsFlow: (r: object) => Promise<Record<string, string>> };
        };
        w.ConvergeEmbeddedPayment.getEFSToken(
          { ssl_txn_auth_token: token },
          {
            onError: (e) => resolve({ stage: 'efs-error', data: e }),
            onDeclined: (e) => resolve({ stage: 'efs-declined', data: e }),
            onThreeDSecure2: (r) => {
              const sdk = new w.Elavon3DSWebSDK({ baseUrl: `${base}/3ds2`, token: r.ssl_3ds2_token });
              sdk
                .web3dsFlow({
                  messageId: 'EFSTransaction',
                  purchaseAmount: '50000',
                  purchaseCurrency: '840',
                  purchaseExponent: '2',
                  acctNumber: card,
                  cardExpiryDate: expiry.slice(2) + expiry.slice(0, 2),
                  messageCategory: '01',
                  transType: '01',
                  challengeWindowSize: '02',
                  displayMode: 'lightbox',
                })
                .then(
                  (res) => {
                    if (['R', 'U', 'N'].includes(res.transStatus ?? ''))
                      return resolve({ stage: '3ds-failed', data: res });
                    w.ConvergeEmbeddedPayment.pay(
                      {
                        ssl_txn_auth_token: token,
                        ssl_card_number: card,
                        ssl_exp_date: expiry,
                        ssl_cvv2cvc2: '123',
                        ssl_first_name: 'Ana',
                        ssl_last_name: 'Garcia',
                        ssl_program_protocol: '2',
                        ssl_eci_ind: res.eci === '05' || res.eci === '02' ? '5' : res.eci === '06' ? '6' : '7',
                        ssl_3dsecure_value: res.authenticationValue ?? '',
                        ssl_dir_server_tran_id: res.dsTransID ?? '',
                        ssl_3ds_server_trans_id: res.threeDSServerTransID ?? '',
                        ssl_3ds_trans_status: res.transStatus ?? '',
                        ssl_merchant_txn_id: '',
                      },
                      {
                        onApproval: (a) => resolve({ stage: 'approved', data: a }),
                        onDeclined: (d) => resolve({ stage: 'declined', data: d }),
                        onError: (e) => resolve({ stage: 'error', data: e }),
                      },
                    );
                  },
                  (err: Record<string, string>) => resolve({ stage: '3ds-error', data: err }),
                );
            },
          },
        );
      }),
    { ...o, base: product.gatewayOrigin },
  );
}

test('challenge card: a 390×400 lightbox of the gateway origin; Authenticate → approved, verified by the server', async ({
  product,
  page,
}) => {
  const { link, token } = await linkReadyToPay(product);
  const { cardRequests } = await gatewayPage(product, page);
  const flow = runFlow(product, page, {
    token: await sessionToken(product, token),
    card: CARDS.challenge,
    expiry: futureExpiry(),
  });

  const lightbox = page.getByRole('dialog', { name: 'Card authentication' });
  await lightbox.waitFor();
  const iframe = page.locator('#elavon-3ds-lightbox iframe');
  assert.ok((await iframe.getAttribute('src'))!.startsWith(`${product.gatewayOrigin}/3ds2/challenge/`));
  const box = await iframe.boundingBox();
  assert.deepEqual([Math.round(box!.width), Math.round(box!.height)], [390, 400]);
  await page
    .frameLocator('#elavon-3ds-lightbox iframe')
    .getByRole('button', { name: 'Authenticate', exact: true })
    .click();

  const outcome = await flow;
  assert.equal(outcome.stage, 'approved', JSON.stringify(outcome));
  assert.match(outcome.data.ssl_approval_code!, /^[A-Z0-9]{6}$/);
  await lightbox.waitFor({ state: 'detached' });

  const confirmed = await api(product, '/api/linkpaymenthistory', {
    method: 'PUT',
    token,
    body: { linkId: link.id, transactionId: outcome.data.ssl_txn_id, payorFullName: 'Ana Garcia', payorEmail: '' },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  assert.equal(JSON.parse(confirmed.text).cardLast4, '0077');
  const again = await api(product, '/api/converge?amount=500', { method: 'POST', token });
  assert.deepEqual([again.status, again.text], [401, 'Process has completed.']);
  // Card data went to the gateway's origin only.
  assert.ok(cardRequests.length > 0);
  assert.deepEqual([...new Set(cardRequests)], [product.gatewayOrigin]);
});

test('challenge card: "Fail authentication" ends N and nothing is paid; the other outcomes reach their callbacks', async ({
  product,
  page,
}) => {
  const { link, token, paymentStepId } = await linkReadyToPay(product);
  await gatewayPage(product, page);
  const log = async (data: object) => {
    const r = await api(product, `/api/linkpaymenthistory/${link.id}/log`, {
      method: 'POST',
      token,
      body: { linkStepId: paymentStepId, payload: JSON.stringify(data) },
    });
    assert.equal(r.status, 201, r.text);
  };

  const failing = runFlow(product, page, {
    token: await sessionToken(product, token),
    card: CARDS.challenge,
    expiry: futureExpiry(),
  });
  await page.frameLocator('#elavon-3ds-lightbox iframe').getByRole('button', { name: 'Fail authentication' }).click();
  const failed = await failing;
  assert.equal(failed.stage, '3ds-failed');
  assert.equal(failed.data.transStatus, 'N');
  await log(failed);

  const cases: [string, string, (o: Outcome) => void][] = [
    [CARDS.rejected3ds, futureExpiry(), (o) => assert.equal(o.data.transStatus, 'R')],
    [CARDS.declined, futureExpiry(), (o) => assert.equal(o.data.ssl_result_message, 'DECLINED')],
    [CARDS.gatewayError, futureExpiry(), (o) => assert.equal(o.data.errorCode, '3003')],
    [CARDS.visaFrictionless, '0120', (o) => assert.equal(o.data.ssl_result_message, 'EXPIRED CARD')],
  ];
  const stages: string[] = [];
  for (const [card, expiry, check] of cases) {
    const o = await runFlow(product, page, { token: await sessionToken(product, token), card, expiry });
    stages.push(o.stage);
    check(o);
    await log(o);
  }
  assert.deepEqual(stages, ['3ds-failed', 'declined', 'error', 'declined']);
});
