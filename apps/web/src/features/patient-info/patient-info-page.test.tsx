import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '../../i18n';
import { RouterProvider, createMemoryHistory } from '../../lib/router';
import { makeStore } from '../../store/store';
import { RequireSteps } from '../../app/guards';
import { loadAppConfig } from '../../lib/app-config';
import { createTestI18n } from '../../test/i18n';
import { setSteps } from '../../store/step-production-slice';
import userEvent from '@testing-library/user-event';
import type { LinkStep, PatientInfo, PatientPlan } from '@paylink/shared';
import { HttpResponse, http, server, setupMsw } from '../../test/msw';
import { LINK_ID, renderApp, signedInSetup } from '../../test/render-app';
import { setPayment } from '../../store/payment-slice';
import { signedIn } from '../../store/auth-slice';
import { setLink } from '../../store/link-slice';

setupMsw();

const DEPOSIT_MSG = 'Amount entered must be between $250 and $1000';
const PAYMENT_MSG = 'Amount entered must be between $500 and $20,000';

function patient(over: Partial<PatientInfo> = {}): PatientInfo {
  return {
    firstName: 'Maria',
    lastName: 'Lopez',
    address: '12 Ocean Ave',
    city: 'Miami',
    state: 'FL',
    zipCode: '33101',
    phone: '(305) 555-0101',
    email: 'maria@example.com',
    paymentSource: null,
    paymentType: null,
    paymentAmount: null,
    isPaymentLinkLocked: false,
    payorName: null,
    payorEmail: null,
    ...over,
  };
}

const steps = (source = 1): LinkStep[] =>
  [
    '/patientinfo',
    '/patientinvoicedetail',
    '/patientiddocs',
    ...(source === 2 ? ['/payoriddocs'] : []),
    '/patientcontract',
    '/paymentauthorization',
    '/confirmation',
  ].map((routePath, i) => ({ linkStepId: 100 + i, routePath, documentUrl: null, linkStepStatusId: i === 0 ? 4 : 1 }));

/** A link with no step list yet: the continue check answers 404 and patient info comes fresh. */
function freshLink(info: PatientInfo) {
  server.use(
    http.get(`*/api/linksteps/script/${LINK_ID}/check`, () =>
      HttpResponse.json({ error: 'not_found', message: 'No step list exists for this link yet.' }, { status: 404 }),
    ),
    http.get(`*/api/patients/patientinfo/${LINK_ID}`, () => HttpResponse.json(info)),
  );
}

async function openForm(info = patient()) {
  freshLink(info);
  const r = await renderApp('/patientinfo', { setup: signedInSetup });
  await screen.findByRole('button', { name: 'AGREE' });
  return { ...r, amount: screen.getByLabelText('Amount (USD, whole dollars)') as HTMLInputElement };
}

const agree = () => screen.getByRole('button', { name: 'AGREE' });

async function typeAmount(input: HTMLInputElement, value: string) {
  const user = userEvent.setup();
  await user.clear(input);
  if (value) await user.type(input, value);
}

describe('/patientinfo amount rules (spec section 5)', () => {
  it("shows 'Loading...' until patient data is present, then the read-only details", async () => {
    freshLink(patient());
    await renderApp('/patientinfo', { setup: signedInSetup });
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'AGREE' });
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    const first = screen.getByLabelText('First name');
    expect(first).toHaveValue('Maria');
    expect(first).toHaveAttribute('readonly');
    for (const label of ['Last name', 'Address', 'City', 'State', 'ZIP code', 'Phone', 'Email']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    }
  });

  it('deposit (type 1, unlocked): 250 to 1000 inclusive, with the deposit hint and message', async () => {
    const { amount } = await openForm();
    expect(screen.getByLabelText('Payment type')).toHaveValue('1');
    expect(screen.getByText(DEPOSIT_MSG)).toHaveClass('form-text');
    for (const [value, ok] of [
      ['249', false],
      ['250', true],
      ['1000', true],
      ['1001', false],
    ] as const) {
      await typeAmount(amount, value);
      if (ok) {
        expect(amount, value).not.toHaveAttribute('aria-invalid');
        expect(screen.queryByTestId('amount-feedback')).not.toBeInTheDocument();
        expect(agree(), value).toBeEnabled();
      } else {
        expect(amount, value).toHaveAttribute('aria-invalid', 'true');
        expect(amount).toHaveClass('is-invalid');
        expect(screen.getByTestId('amount-feedback')).toHaveTextContent(DEPOSIT_MSG);
        expect(screen.getByRole('alert')).toHaveTextContent(DEPOSIT_MSG);
        expect(agree(), value).toBeDisabled();
      }
    }
  });

  it('partial payment (type 2): 500 to 20000 inclusive, with the partial-payment hint and message', async () => {
    const { amount } = await openForm();
    await userEvent.setup().selectOptions(screen.getByLabelText('Payment type'), 'Partial Payment');
    expect(screen.getByText(PAYMENT_MSG)).toHaveClass('form-text');
    for (const [value, ok] of [
      ['499', false],
      ['500', true],
      ['20000', true],
      ['20001', false],
    ] as const) {
      await typeAmount(amount, value);
      expect(agree(), value).toHaveProperty('disabled', !ok);
      if (ok) expect(screen.queryByTestId('amount-feedback')).not.toBeInTheDocument();
      else expect(screen.getByTestId('amount-feedback')).toHaveTextContent(PAYMENT_MSG);
    }
  });

  it('a locked link forces type 2 (Partial Payment) and the 500-20000 range whatever the stored type', async () => {
    const { amount } = await openForm(patient({ isPaymentLinkLocked: true, paymentType: 1 }));
    const type = screen.getByLabelText('Payment type');
    expect(type).toBeDisabled();
    expect(type).toHaveValue('2');
    expect(screen.getByText('Your practice set up this link for a partial payment.')).toBeInTheDocument();
    for (const [value, ok] of [
      ['250', false],
      ['499', false],
      ['500', true],
      ['20000', true],
      ['20001', false],
    ] as const) {
      await typeAmount(amount, value);
      expect(agree(), value).toHaveProperty('disabled', !ok);
      if (!ok) expect(screen.getByTestId('amount-feedback')).toHaveTextContent(PAYMENT_MSG);
    }
  });

  it('accepts digits only: other keys are refused and pasted text is reduced to its digits', async () => {
    const { amount } = await openForm();
    expect(fireEvent.keyDown(amount, { key: 'a' })).toBe(false);
    expect(fireEvent.keyDown(amount, { key: '-' })).toBe(false);
    expect(fireEvent.keyDown(amount, { key: '.' })).toBe(false);
    expect(fireEvent.keyDown(amount, { key: '7' })).toBe(true);
    expect(fireEvent.keyDown(amount, { key: 'Backspace' })).toBe(true);
    const user = userEvent.setup();
    await user.click(amount);
    await user.paste('$ 12a50');
    expect(amount).toHaveValue('1250');
    expect(screen.getByTestId('amount-feedback')).toHaveTextContent(DEPOSIT_MSG);
    await user.clear(amount);
    await user.paste('500');
    expect(amount).toHaveValue('500');
    expect(agree()).toBeEnabled();
  });

  it('refuses a decimal point or comma with "whole dollars only" instead of multiplying the amount (issue 16)', async () => {
    const { amount } = await openForm();
    const user = userEvent.setup();
    await user.click(amount);
    await user.paste('150.00');
    expect(amount).toHaveValue('');
    expect(screen.getByRole('alert')).toHaveTextContent(/Whole dollars only/);
    expect(agree()).toBeDisabled();
    await user.paste('1,500');
    expect(amount).toHaveValue('');
    await user.type(amount, '300');
    expect(amount).toHaveValue('300');
    expect(screen.queryByText(/Whole dollars only/)).not.toBeInTheDocument();
    await user.type(amount, '.');
    expect(amount).toHaveValue('300');
    expect(screen.getByText(/Whole dollars only/)).toBeInTheDocument();
    expect(amount.getAttribute('aria-describedby')).toContain(screen.getByTestId('amount-whole-dollars').id);
  });

  it('shows the amount as dollars beside the field before AGREE (issue 16)', async () => {
    const { amount } = await openForm();
    await typeAmount(amount, '750');
    expect(screen.getByTestId('amount-formatted')).toHaveTextContent('$750.00');
    expect(amount.getAttribute('aria-describedby')).toContain(screen.getByTestId('amount-formatted').id);
    await typeAmount(amount, '');
    expect(screen.queryByTestId('amount-formatted')).not.toBeInTheDocument();
  });

  it('formats the phone as on /auth, says "Not on file" for empty details, and chooses the patient as payer (issue 16)', async () => {
    await openForm(patient({ phone: '+15550101111', address: '', city: null as unknown as string }));
    expect(screen.getByLabelText('Phone')).toHaveValue('(555) 010-1111');
    expect(screen.getByLabelText('Address')).toHaveValue('');
    expect(screen.getByLabelText('Address')).toHaveAttribute('placeholder', 'Not on file');
    expect(screen.getByLabelText('City')).toHaveAttribute('placeholder', 'Not on file');
    expect(screen.getByLabelText('First name')).not.toHaveAttribute('placeholder');
    expect(screen.getByRole('radio', { name: 'I am (the patient)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Someone else (a payor)' })).not.toBeChecked();
  });

  it('AGREE stays disabled while the amount is empty or the first name is missing', async () => {
    const { amount } = await openForm();
    await typeAmount(amount, '');
    expect(agree()).toBeDisabled();
    expect(screen.queryByTestId('amount-feedback')).not.toBeInTheDocument();
  });

  it('AGREE stays disabled without a first name', async () => {
    const { amount } = await openForm(patient({ firstName: '' }));
    await typeAmount(amount, '500');
    expect(agree()).toBeDisabled();
  });

  it('AGREE is disabled once the session has expired', async () => {
    const { amount, store } = await openForm();
    await typeAmount(amount, '500');
    expect(agree()).toBeEnabled();
    store.dispatch(signedIn({ token: 't', expiresAt: new Date(Date.now() - 1000).toISOString() }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'AGREE' })).not.toBeInTheDocument());
  });
});

describe('/patientinfo back button (spec section 2)', () => {
  it('does nothing: the page, its URL and what was typed stay', async () => {
    const { amount, router } = await openForm();
    await typeAmount(amount, '500');
    for (let i = 0; i < 2; i++) {
      act(() => router.back());
      expect(router.location().pathname).toBe('/patientinfo');
      expect(screen.getByRole('heading', { level: 1, name: 'Patient information' })).toBeInTheDocument();
      expect(screen.getByLabelText('Amount (USD, whole dollars)')).toHaveValue('500');
    }
  });
});

describe('/patientinfo submit', () => {
  it('records the choice, creates the step list and goes to the second step; defaults source to 1', async () => {
    const calls: { choice?: unknown; script?: Record<string, string> } = {};
    server.use(
      http.post('*/api/linkpaymenthistory', async ({ request }) => {
        calls.choice = await request.json();
        return HttpResponse.json({ linkId: LINK_ID, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 300 });
      }),
      http.post('*/api/linksteps/script', ({ request }) => {
        calls.script = Object.fromEntries(new URL(request.url).searchParams);
        return HttpResponse.json(steps(1));
      }),
      http.put('*/api/linksteps', () => HttpResponse.json({})),
    );
    const { amount, router, store } = await openForm();
    await typeAmount(amount, '300');
    const button = agree();
    await userEvent.setup().click(button);
    await waitFor(() => expect(router.location().pathname).toBe('/patientinvoicedetail'));
    expect(calls.choice).toEqual({ linkId: LINK_ID, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 300 });
    expect(calls.script).toEqual({ linkId: LINK_ID, paymentTypeId: '1', paymentSourceId: '1', paymentAmount: '300' });
    expect(store.getState().stepProduction.stepsProduction[0]).toHaveLength(6);
    expect(store.getState().patient.patient[0]).toMatchObject({ paymentAmount: 300, paymentType: 1, paymentSource: 1 });
  });

  it('a locked link submits type 2; the payor choice is sent as 2', async () => {
    let choice: unknown;
    server.use(
      http.post('*/api/linkpaymenthistory', async ({ request }) => {
        choice = await request.json();
        return HttpResponse.json({});
      }),
      http.post('*/api/linksteps/script', () => HttpResponse.json(steps(2))),
      http.put('*/api/linksteps', () => HttpResponse.json({})),
    );
    const { amount, router } = await openForm(patient({ isPaymentLinkLocked: true }));
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Someone else (a payor)'));
    await typeAmount(amount, '5000');
    await user.click(agree());
    await waitFor(() => expect(router.location().pathname).toBe('/patientinvoicedetail'));
    expect(choice).toEqual({ linkId: LINK_ID, paymentTypeId: 2, paymentSourceId: 2, paymentAmount: 5000 });
  });

  it('disables AGREE while the calls run, and shows Error {status} {statusText} when one fails', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.post('*/api/linkpaymenthistory', async () => {
        await gate;
        return new HttpResponse('boom', { status: 500, statusText: 'Internal Server Error' });
      }),
    );
    const { amount } = await openForm();
    await typeAmount(amount, '300');
    await userEvent.setup().click(agree());
    expect(agree()).toBeDisabled();
    release();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Error 500 Internal Server Error' }),
    ).toBeInTheDocument();
  });
});

describe('/patientinfo first load: the continue check (spec section 4)', () => {
  it('200 clears the old stores, restores steps and patient data, and goes to currentRoutePath', async () => {
    const list = steps(1).map((s) => (s.routePath === '/patientinvoicedetail' ? { ...s, linkStepStatusId: 4 } : s));
    server.use(
      http.get(`*/api/linksteps/script/${LINK_ID}/check`, () =>
        HttpResponse.json({
          linkStepScript: list,
          person: patient({ paymentAmount: 400, paymentType: 1, paymentSource: 1 }),
          payment: { paymentAmount: 400, paymentSourceId: 1, paymentTypeId: 1 },
          paymentAmount: 400,
          currentRoutePath: '/patientiddocs',
        }),
      ),
      http.put('*/api/linksteps', () => HttpResponse.json({})),
    );
    const { router, store } = await renderApp('/patientinfo', {
      setup: (d) => {
        signedInSetup(d);
        d(setPayment({ ssl_txn_id: 'stale-from-last-visit' }));
      },
    });
    await waitFor(() => expect(router.location().pathname).toBe('/patientiddocs'));
    const s = store.getState();
    expect(s.payment.ssl_txn_id).toBe('');
    expect(s.stepProduction.stepsProduction[0]).toEqual(list);
    expect(s.patient.patient[0]).toMatchObject({ firstName: 'Maria', paymentAmount: 400 });
    expect(s.auth.access_token).toBe('test-token');
  });

  it('404 loads fresh patient info', async () => {
    freshLink(patient({ firstName: 'Ana' }));
    await renderApp('/patientinfo', { setup: signedInSetup });
    expect(await screen.findByLabelText('First name')).toHaveValue('Ana');
  });

  it.each([
    ['Link Expired.', '/linkexpired', 'The link has expired. Please contact your sales coordinator for a new link.'],
    [
      'Link has been Cancelled.',
      '/linkcancelled',
      'The link has been cancelled. Please contact your sales coordinator for a new link.',
    ],
    [
      'Process has completed.',
      '/stepscomplete',
      'Process has been completed and Payment has been made. No further action required...',
    ],
  ])("401 '%s' goes to %s", async (body, path, title) => {
    server.use(
      http.get(`*/api/linksteps/script/${LINK_ID}/check`, () =>
        HttpResponse.text(body, { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
      ),
    );
    const { router } = await renderApp('/patientinfo', { setup: signedInSetup });
    await waitFor(() => expect(router.location().pathname).toBe(path));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it('any other 401 signs the user out and sends them to /auth', async () => {
    server.use(
      http.get(`*/api/linksteps/script/${LINK_ID}/check`, () =>
        HttpResponse.json({ error: 'unauthorized', message: 'Sign in again to continue.' }, { status: 401 }),
      ),
      http.post('*/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
      http.get('*/api/auth/options', () => HttpResponse.json({ method: 'email', captchaSiteKey: null })),
    );
    const { router, store } = await renderApp('/patientinfo', { setup: signedInSetup });
    await waitFor(() => expect(router.location().pathname).toBe('/auth'));
    expect(router.location().search).toBe(`?id=${LINK_ID}`);
    expect(store.getState().auth.exp_Date).toBe('');
    expect(store.getState().auth.access_token).toBe('');
  });

  it('a network failure lands on the catch-all page', async () => {
    server.use(http.get(`*/api/linksteps/script/${LINK_ID}/check`, () => HttpResponse.error()));
    await renderApp('/patientinfo', { setup: signedInSetup });
    expect(await screen.findByRole('heading', { level: 1, name: 'Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/couldn't reach our server/)).toBeInTheDocument();
  });
});

describe('/patientinfo guards', () => {
  it('no session → /auth with the link id', async () => {
    server.use(http.get('*/api/auth/options', () => HttpResponse.json({ method: 'email', captchaSiteKey: null })));
    const { router } = await renderApp('/patientinfo', { setup: (d) => d(setLink({ link_id: LINK_ID })) });
    await waitFor(() => expect(router.location().pathname).toBe('/auth'));
    expect(router.location().search).toBe(`?id=${LINK_ID}`);
  });

  it('no link id → /forbidden', async () => {
    const { router } = await renderApp('/patientinfo');
    await waitFor(() => expect(router.location().pathname).toBe('/forbidden'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forbidden' })).toBeInTheDocument();
  });

  it('a step page without a step list shows the unauthorised page (error401Title)', async () => {
    const { store } = makeStore({ passphrase: 'k' });
    const i18n = await createTestI18n('en');
    await loadAppConfig();
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <RouterProvider history={createMemoryHistory('/patientcontract')}>
            <RequireSteps>
              <p>contract</p>
            </RequireSteps>
          </RouterProvider>
        </I18nProvider>
      </Provider>,
    );
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: 'Not Authorized' })).toBeInTheDocument();
    expect(screen.queryByText('contract')).not.toBeInTheDocument();
  });

  it('the first load of a step page runs the continue check and follows the server', async () => {
    const list = steps(1).map((s, i) => ({ ...s, linkStepStatusId: i <= 2 ? 4 : 1 }));
    server.use(
      http.get(`*/api/linksteps/script/${LINK_ID}/check`, () =>
        HttpResponse.json({
          linkStepScript: list,
          person: patient(),
          payment: { paymentAmount: 400, paymentSourceId: 1, paymentTypeId: 1 },
          paymentAmount: 400,
          currentRoutePath: '/patientcontract',
        }),
      ),
    );
    const { router, store } = await renderApp('/patientiddocs', {
      setup: (d) => {
        signedInSetup(d);
        d(setSteps(steps(1)));
      },
    });
    await waitFor(() => expect(router.location().pathname).toBe('/patientcontract'));
    // The server's list replaced the stale one (the contract page may already have marked itself in progress).
    const restored = store.getState().stepProduction.stepsProduction[0]!;
    expect(restored.map((s) => s.routePath)).toEqual(list.map((s) => s.routePath));
    expect(restored.slice(0, 3).map((s) => s.linkStepStatusId)).toEqual([4, 4, 4]);
  });

  it('the first load of a step page with no step list on the server goes to /patientinfo', async () => {
    freshLink(patient());
    const { router } = await renderApp('/patientinvoicedetail', { setup: signedInSetup });
    await waitFor(() => expect(router.location().pathname).toBe('/patientinfo'));
    expect(await screen.findByRole('button', { name: 'AGREE' })).toBeInTheDocument();
  });
});

describe('/patientinfo on a plan link (issue 41, item 5)', () => {
  const plan: PatientPlan = {
    kind: 'installments',
    total: 2000,
    deposit: null,
    balance: 2000,
    projected: true,
    installments: [],
    shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
    noticeDays: 7,
    scheduleLines: { en: [], es: [] },
    card: null,
    practice: { name: 'Bella Vista Plastic Surgery', phone: '(555) 010-0123', email: 'billing@bv.example' },
    agreement: { version: '2026-11-27', acceptedAt: null },
  };

  it('names the total, today’s deposit and each later charge, following the amount typed', async () => {
    server.use(http.get(`*/api/plans/${LINK_ID}`, () => HttpResponse.json(plan)));
    const { amount } = await openForm();
    const summary = await screen.findByTestId('plan-summary');
    expect(within(summary).getByRole('heading', { name: 'Your payment plan' })).toBeInTheDocument();
    expect(summary).toHaveTextContent('Total of your quote$2,000.00');
    expect(summary).toHaveTextContent('Today (Deposit)Enter the amount above');
    expect(summary).toHaveTextContent('Enter today’s amount above to see the charges that follow.');
    await typeAmount(amount, '500');
    expect(summary).toHaveTextContent('Today (Deposit)$500.00');
    expect(summary).toHaveTextContent(
      'The rest, $1,500.00, is charged automatically to the card you pay the deposit with:',
    );
    const list = within(summary).getByRole('list', { name: /The rest, \$1,500\.00/ });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['January 31, 2098: $500.00', 'February 28, 2098: $500.00', 'March 31, 2098: $500.00']);
    await typeAmount(amount, '1000');
    expect(
      within(within(summary).getByRole('list', { name: /The rest, \$1,000\.00/ }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['January 31, 2098: $333.33', 'February 28, 2098: $333.33', 'March 31, 2098: $333.34']);
    expect(summary).toHaveTextContent('7 days before each charge');
  });

  it('speaks Spanish', async () => {
    server.use(http.get(`*/api/plans/${LINK_ID}`, () => HttpResponse.json(plan)));
    freshLink(patient({ paymentAmount: 500, paymentType: 1 }));
    await renderApp('/patientinfo', { setup: signedInSetup, lng: 'es' });
    const summary = await screen.findByTestId('plan-summary');
    expect(summary).toHaveTextContent('Su plan de pagos');
    expect(summary).toHaveTextContent('Total de su presupuesto$2,000.00');
    expect(summary).toHaveTextContent('Hoy (Depósito)$500.00');
    expect(summary).toHaveTextContent(
      'El resto, $1,500.00, se cobrará automáticamente a la tarjeta con la que pague el depósito:',
    );
    expect(summary).toHaveTextContent('31 de enero de 2098: $500.00');
  });

  it('shows nothing of a plan on a link without one', async () => {
    await openForm();
    expect(screen.queryByTestId('plan-summary')).not.toBeInTheDocument();
  });
});
