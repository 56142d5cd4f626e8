import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PatientInfo } from '@paylink/shared';
import { PERSIST_STORAGE_KEY } from '../../store/persist';
import {
  LINK_ID,
  fakeServer,
  postSigningMessage,
  renderStepPage,
  stepList,
  type RecordedCall,
  type Responder,
} from '../../test/document-harness';
import { approval, fakeGateway, type FakeGatewayScript } from '../../test/fake-gateway';
import PaymentAuthorizationPage from './payment-authorization-page';

const patient: PatientInfo = {
  firstName: 'Jane',
  lastName: 'Doe',
  address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipCode: '73301',
  phone: '5125550100',
  email: 'jane@example.com',
  paymentSource: 1,
  paymentType: 1,
  paymentAmount: 500,
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
};
const payorPatient: PatientInfo = { ...patient, paymentSource: 2, paymentType: 2, paymentAmount: 1500 };
const readySteps = (source: 1 | 2) =>
  stepList(source, {
    '/patientinvoicedetail': 4,
    '/patientiddocs': 4,
    '/payoriddocs': 4,
    '/patientcontract': 4,
    '/paymentauthorization': 2,
  });

const server: Responder = (c) => {
  if (c.path === '/api/converge') return { text: 'session-tok' };
  if (c.path === '/api/linkpaymenthistory' && c.method === 'PUT') {
    return { json: { linkId: LINK_ID, transactionId: 'TXN-1', approvalCode: 'ABC123', amount: 500 } };
  }
  return { json: {} };
};

async function renderPage(
  opts: { script?: FakeGatewayScript; respond?: Responder; payor?: boolean; lng?: 'en' | 'es' } = {},
) {
  const http = fakeServer(opts.respond ?? server);
  const gateway = fakeGateway(opts.script);
  const view = await renderStepPage({
    path: '/paymentauthorization',
    element: <PaymentAuthorizationPage loadGatewayGlobals={async () => gateway} />,
    steps: readySteps(opts.payor ? 2 : 1),
    patient: opts.payor ? payorPatient : patient,
    lng: opts.lng,
  });
  return { ...view, ...http, gateway };
}

async function fillCard(card = '4000000000000002', expiry = '1230', cvc = '123') {
  await user.type(screen.getByLabelText('Card number'), card);
  await user.type(screen.getByLabelText('Expiration date (MMYY)'), expiry);
  await user.type(screen.getByLabelText('CVC/CVV'), cvc);
  await user.click(screen.getByLabelText('I agree to the terms'));
}

// No delay between keystrokes: the tests type whole card numbers.
const user = userEvent.setup({ delay: null });

const payNow = () => screen.getByRole('button', { name: /PAY NOW|Processing payment/ });
const logCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === `/api/linkpaymenthistory/${LINK_ID}/log`);

beforeEach(() => window.localStorage.clear());
// Rendering whole pages on a busy 2-core machine: room for slow runs, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the form', () => {
  it('shows the date (en-US), the payer, the amount, and prefills the patient-paid form', async () => {
    await renderPage();
    expect(await screen.findByRole('heading', { name: 'Payment Authorization' })).toBeInTheDocument();
    expect(screen.getByTestId('payment-date')).toHaveTextContent(new Date().toLocaleDateString('en-US'));
    expect(screen.getByTestId('payment-source')).toHaveTextContent('Patient');
    expect(screen.getByText('$500.00', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name on card')).toHaveValue('Jane Doe');
    expect(screen.getByLabelText('Billing zip code')).toHaveValue('73301');
    expect(screen.getByLabelText('Billing address')).toHaveValue('1 Main St');
    expect(screen.getByLabelText('Billing city')).toHaveValue('Austin');
    const state = screen.getByLabelText('Billing state') as HTMLSelectElement;
    expect(state).toHaveValue('Texas');
    expect(within(state).getAllByRole('option')).toHaveLength(51);
    expect(within(state).getByRole('option', { name: 'TX' })).toHaveValue('Texas');
    expect(screen.getByLabelText('Card number')).toHaveValue('');
    expect(screen.getByText(/deposit is non-refundable/)).toHaveTextContent(/pre-op day, or the surgeon may cancel/);
    expect(screen.getByText(/card information is encrypted/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Payor email')).not.toBeInTheDocument();
  });

  it('enables PAY NOW only when every rule passes', async () => {
    await renderPage();
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    expect(payNow()).toBeDisabled();
    await user.type(screen.getByLabelText('Card number'), '4000 0000-0000 0002 99');
    expect(screen.getByLabelText('Card number')).toHaveValue('4000 0000 0000 0002');
    expect(screen.getByTestId('card-type')).toHaveTextContent('Visa');
    expect(screen.getByTestId('card-type')).toHaveClass('card-type-visa');
    await user.type(screen.getByLabelText('Expiration date (MMYY)'), '1230');
    await user.type(screen.getByLabelText('CVC/CVV'), '12');
    await user.click(screen.getByLabelText('I agree to the terms'));
    expect(payNow()).toBeDisabled();
    await user.type(screen.getByLabelText('CVC/CVV'), '3');
    expect(payNow()).toBeEnabled();
    await user.clear(screen.getByLabelText('Billing city'));
    await user.tab();
    expect(payNow()).toBeDisabled();
    expect(screen.getByText('Enter the billing city')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Billing city'), 'Austin');
    await user.click(screen.getByLabelText('I agree to the terms'));
    expect(payNow()).toBeDisabled();
  });

  it('explains the expiry and CVC rules under a main message', async () => {
    await renderPage();
    const expiry = await screen.findByLabelText('Expiration date (MMYY)');
    await user.type(expiry, '13');
    expect(screen.getByText('Check the expiration date')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid expiration month')).toBeInTheDocument();
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    await user.clear(expiry);
    await user.type(expiry, '12a');
    expect(screen.getAllByText('Numbers only allowed').length).toBeGreaterThan(0);
    await user.clear(expiry);
    await user.type(expiry, '1201');
    expect(screen.getByText('Enter a valid expiration year')).toBeInTheDocument();
    await user.clear(expiry);
    await user.tab();
    expect(screen.getByText('Enter date')).toBeInTheDocument();
    await user.type(screen.getByLabelText('CVC/CVV'), '1');
    await user.tab();
    expect(screen.getByText('The security code must have 3 or 4 digits')).toBeInTheDocument();
  });
});

describe('paying', () => {
  it('pays, records the approval with our server, purges the stored state and shows the confirmation', async () => {
    const { calls, gateway, store } = await renderPage();
    window.localStorage.setItem(PERSIST_STORAGE_KEY, 'U2FsdGVkX1-something');
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    const converge = calls.find((c) => c.path === '/api/converge');
    expect(converge).toMatchObject({ method: 'POST', query: { amount: '500.00' } });
    expect(gateway.calls.threeDS[0]).toMatchObject({ purchaseAmount: '50000', displayMode: 'lightbox' });
    expect(calls.find((c) => c.path === '/api/linkpaymenthistory')).toMatchObject({
      method: 'PUT',
      // The receipt e-mail field starts from the e-mail on file and goes with the confirmation (issue 10 item 7).
      body: {
        linkId: LINK_ID,
        transactionId: 'TXN-1',
        payorFullName: 'Jane Doe',
        payorEmail: '',
        receiptEmail: 'jane@example.com',
      },
    });
    const state = store.getState();
    expect(state.payment).toMatchObject({ ssl_txn_id: 'TXN-1', ssl_approval_code: 'ABC123', ssl_amount: '500.00' });
    expect(state.stepProduction.stepsProduction[0]?.find((s) => s.routePath === '/paymentauthorization')).toMatchObject(
      { linkStepStatusId: 4 },
    );
    // Card data went to the gateway only.
    expect(JSON.stringify(calls)).not.toMatch(/4000000000000002|"123"/);
    expect(JSON.stringify(state)).not.toContain('4000000000000002');
    expect(window.localStorage.getItem(PERSIST_STORAGE_KEY)).toBeNull();
    expect(logCalls(calls)).toEqual([]);
  });

  it('an emptied receipt e-mail asks for the receipt by SMS; a malformed one blocks PAY NOW (issue 10 item 7)', async () => {
    const { calls } = await renderPage();
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    const field = screen.getByLabelText('E-mail for your receipt (optional)');
    expect(field).toHaveValue('jane@example.com');
    expect(screen.getByText('Leave it empty to get your receipt by text message instead.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'jane@example');
    await user.tab();
    expect(screen.getByText('Enter a valid email address, like name@example.com')).toBeInTheDocument();
    expect(payNow()).toBeDisabled();
    await user.clear(field);
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    expect(calls.find((c) => c.path === '/api/linkpaymenthistory')?.body).toMatchObject({ receiptEmail: '' });
  });

  it('locks PAY NOW while a submission is under way', async () => {
    let finish: (() => void) | undefined;
    const { calls } = await renderPage({
      script: { pay: (_d, cb) => (finish = () => cb.onApproval?.(approval)) },
    });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    await waitFor(() => expect(finish).toBeDefined());
    expect(payNow()).toBeDisabled();
    expect(payNow()).toHaveTextContent('Processing payment…');
    await user.click(payNow());
    expect(calls.filter((c) => c.path === '/api/converge')).toHaveLength(1);
    act(() => finish!());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
  });

  it('a decline shows the CVV message, is logged without card data, and OK releases the lock', async () => {
    const declined = { ssl_result_message: 'DECLINED', ssl_cvv2_response: 'N', ssl_avs_response: 'Y' };
    const { calls } = await renderPage({ script: { pay: (_d, cb) => cb.onDeclined?.(declined) } });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard('4000000000000051');
    await user.click(payNow());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Card Declined')).toBeInTheDocument();
    expect(within(dialog).getByText('Unable to process payment.')).toBeInTheDocument();
    expect(within(dialog).getByText('Verify the information you entered is correct.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('decline-message')).toHaveTextContent(
      'The security code (CVV2/CVC2) does not match.',
    );
    await waitFor(() => expect(logCalls(calls)).toHaveLength(1));
    const log = logCalls(calls)[0]!.body as { linkStepId: number; payload: string };
    expect(log.linkStepId).toBe(104);
    expect(JSON.parse(log.payload)).toMatchObject({ kind: 'declined', cardLast4: '0051', ssl_cvv2_response: 'N' });
    expect(log.payload).not.toContain('4000000000000051');
    expect(payNow()).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(payNow()).toBeEnabled();
    expect(payNow()).toHaveTextContent('PAY NOW');
  });

  it('a 3-D Secure failure shows its own modal and charges nothing', async () => {
    const { calls, gateway } = await renderPage({ script: { threeDS: async () => ({ transStatus: 'R' }) } });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard('4000000000000119');
    await user.click(payNow());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('We were unable to process your payment')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Transaction could not authenticate. Please use another form of payment.'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText('Card Declined')).not.toBeInTheDocument();
    expect(gateway.calls.pay).toHaveLength(0);
    await waitFor(() => expect(logCalls(calls)).toHaveLength(1));
  });

  it('an approval our server cannot verify goes to the payment error page, never back to PAY NOW', async () => {
    const { calls } = await renderPage({
      respond: (c) =>
        c.path === '/api/linkpaymenthistory' && c.method === 'PUT'
          ? { status: 409, statusText: 'Conflict', json: { error: 'payment_not_verified', message: 'Not verified.' } }
          : server(c),
    });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/paymenterror');
    expect(calls.filter((c) => c.path === '/api/converge')).toHaveLength(1);
  });

  it('a refused token request shows Error {status} {statusText}', async () => {
    await renderPage({
      respond: (c) =>
        c.path === '/api/converge'
          ? { status: 409, statusText: 'Conflict', json: { error: 'amount_mismatch', message: 'Amount changed.' } }
          : { json: {} },
    });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    expect(await screen.findByRole('heading', { name: 'Error 409 Conflict' })).toBeInTheDocument();
  });
});

describe('another browser paying the same link (409 payment_in_progress, issue 25)', () => {
  const inProgress = { error: 'payment_in_progress', message: 'A payment for this link is already in progress.' };

  it('says so in English, keeps PAY NOW locked, then says that payment was not completed and pays', async () => {
    let states = 0;
    let tokens = 0;
    const { calls, gateway } = await renderPage({
      respond: (c) => {
        if (c.path === '/api/converge') {
          return tokens++ === 0 ? { status: 409, statusText: 'Conflict', json: inProgress } : { text: 'session-tok' };
        }
        if (c.path === '/api/converge/state') return { json: { inProgress: states++ === 0 } };
        return server(c);
      },
    });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    expect(
      await screen.findByText(
        'A payment for this link is already in progress, in another window or on another device. Please wait: this page will show its result.',
      ),
    ).toHaveAttribute('role', 'status');
    // Not "processing": this page is not paying; no modal, no gateway, nothing logged.
    expect(screen.getByRole('button', { name: 'PAY NOW' })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(gateway.calls.pay).toHaveLength(0);
    expect(logCalls(calls)).toHaveLength(0);
    // The other payment ended without a payment: said honestly (not "nothing was charged"), PAY NOW released.
    expect(
      await screen.findByText('That payment was not completed. You can pay now.', {}, { timeout: 10_000 }),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByText(/not charged/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/converge/state').length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(payNow()).toBeEnabled());
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
  });

  it('says so in Spanish, and goes to the steps-complete page once that payment is recorded', async () => {
    await renderPage({
      lng: 'es',
      respond: (c) => {
        if (c.path === '/api/converge') return { status: 409, statusText: 'Conflict', json: inProgress };
        if (c.path === '/api/converge/state') {
          return { status: 401, statusText: 'Unauthorized', text: 'Process has completed.' };
        }
        return server(c);
      },
    });
    await screen.findByRole('heading', { name: 'Autorización de pago' });
    await user.type(screen.getByLabelText('Número de tarjeta'), '4000000000000002');
    await user.type(screen.getByLabelText('Fecha de vencimiento (MMAA)'), '1230');
    await user.type(screen.getByLabelText('CVC/CVV'), '123');
    await user.click(screen.getByLabelText('Acepto los términos'));
    await user.click(screen.getByRole('button', { name: 'PAGAR AHORA' }));
    expect(
      await screen.findByText(
        'Ya hay un pago en curso para este enlace, en otra ventana o en otro dispositivo. Espere por favor: esta página mostrará su resultado.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'PAGAR AHORA' })).toBeDisabled();
    expect(await screen.findByTestId('landed', {}, { timeout: 10_000 })).toHaveTextContent('/stepscomplete');
  });
});

describe('decline messages in Spanish', () => {
  it.each([
    [
      { ssl_result_message: 'DECLINED', ssl_cvv2_response: 'M', ssl_avs_response: 'N' },
      'Ni la dirección ni el código postal coinciden.',
    ],
    [{ ssl_result_message: 'DECLINED', ssl_cvv2_response: 'P' }, 'No se procesó el código de seguridad (CVV2/CVC2).'],
    [{ ssl_result_message: 'DECLINED', ssl_cvv2_response: 'M', ssl_avs_response: 'Y' }, 'RECHAZADA'],
    [
      {
        errorCode: 5000,
        errorMessage: 'The Credit Card Number supplied in the authorization request appears to be invalid.',
      },
      'El número de tarjeta de crédito indicado en la solicitud de autorización parece no ser válido.',
    ],
    [{ errorCode: 9999, errorMessage: 'Something new' }, 'Something new'],
  ])('%j → %s', async (answer, text) => {
    await renderPage({
      lng: 'es',
      script: { pay: (_d, cb) => ('errorCode' in answer ? cb.onError : cb.onDeclined)?.(answer) },
    });
    await screen.findByRole('heading', { name: 'Autorización de pago' });
    await user.type(screen.getByLabelText('Número de tarjeta'), '4000000000000069');
    await user.type(screen.getByLabelText('Fecha de vencimiento (MMAA)'), '1230');
    await user.type(screen.getByLabelText('CVC/CVV'), '123');
    await user.click(screen.getByLabelText('Acepto los términos'));
    await user.click(screen.getByRole('button', { name: 'PAGAR AHORA' }));
    const dialog = await screen.findByRole('dialog');
    // A gateway error (nothing charged) is titled neutrally; a decline is "Tarjeta rechazada" (decision 0163).
    expect(
      within(dialog).getByText('errorCode' in answer ? 'No se completó el pago' : 'Tarjeta rechazada'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('No se pudo procesar el pago.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('decline-message')).toHaveTextContent(text);
    expect(within(dialog).getByRole('button', { name: 'Aceptar' })).toBeInTheDocument();
  });
});

describe('payor pays', () => {
  it('needs the payor e-mail and the signed authorisation first; the form starts empty', async () => {
    const { calls } = await renderPage({ payor: true });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    expect(screen.getByTestId('payment-source')).toHaveTextContent('Payor');
    expect(screen.getByLabelText('Name on card')).toHaveValue('');
    expect(screen.getByLabelText('Billing state')).toHaveValue('');
    const frame = screen.getByTitle('Payment authorization for the payor to sign');
    expect(frame.parentElement).toHaveStyle({ height: '400px' });

    await user.type(screen.getByLabelText('Name on card'), 'Pat Payor');
    await fillCard();
    await user.type(screen.getByLabelText('Billing zip code'), '10001');
    await user.type(screen.getByLabelText('Billing address'), '5 Park Ave');
    await user.type(screen.getByLabelText('Billing city'), 'New York');
    await user.selectOptions(screen.getByLabelText('Billing state'), 'NY');
    expect(screen.getByLabelText('Billing state')).toHaveValue('New York');
    expect(payNow()).toBeDisabled();

    await user.type(screen.getByLabelText('Payor email'), 'pat@');
    await user.tab();
    expect(screen.getByText('Enter a valid email address, like name@example.com')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Payor email'), 'example.com');
    expect(payNow()).toBeDisabled();

    act(() => postSigningMessage({ origin: 'https://elsewhere.example' }));
    expect(payNow()).toBeDisabled();
    act(() => postSigningMessage());
    await waitFor(() => expect(payNow()).toBeEnabled());
    expect(screen.getByText('Authorization signed.')).toBeInTheDocument();

    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    expect(calls.find((c) => c.path === '/api/converge')?.query).toEqual({ amount: '1500.00' });
    expect(calls.find((c) => c.path === '/api/linkpaymenthistory')?.body).toEqual({
      linkId: LINK_ID,
      transactionId: 'TXN-1',
      payorFullName: 'Pat Payor',
      payorEmail: 'pat@example.com',
    });
  }, 15_000);
});

describe('entering the payment step', () => {
  it('continuing a previous session clears the flag and makes no status call', async () => {
    const http = fakeServer(server);
    const { store } = await renderStepPage({
      path: '/paymentauthorization',
      element: <PaymentAuthorizationPage loadGatewayGlobals={async () => fakeGateway()} />,
      steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4, '/patientcontract': 4 }),
      patient,
      isContinue: true,
    });
    await waitFor(() => expect(store.getState().continue.isContinue).toBe(false));
    expect(http.calls.filter((c) => c.path === '/api/linksteps')).toEqual([]);
  });

  it('a gateway that cannot be loaded says nothing was charged, and OK releases the lock', async () => {
    const http = fakeServer(server);
    await renderStepPage({
      path: '/paymentauthorization',
      element: <PaymentAuthorizationPage loadGatewayGlobals={() => Promise.reject(new Error('blocked'))} />,
      steps: readySteps(1),
      patient,
    });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await fillCard();
    await user.click(payNow());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Your card was not charged/)).toBeInTheDocument();
    expect(within(dialog).queryByText('Card Declined')).not.toBeInTheDocument();
    await waitFor(() => expect(logCalls(http.calls)).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(payNow()).toBeEnabled());
  });

  it('sets a fresh payment step in progress', async () => {
    const http = fakeServer(server);
    await renderStepPage({
      path: '/paymentauthorization',
      element: <PaymentAuthorizationPage loadGatewayGlobals={async () => fakeGateway()} />,
      steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4, '/patientcontract': 4 }),
      patient,
    });
    await waitFor(() =>
      expect(http.calls.filter((c) => c.path === '/api/linksteps')).toEqual([
        expect.objectContaining({
          method: 'PUT',
          query: { linkId: LINK_ID, linkStepId: '104', LinkStepStatusId: '2' },
        }),
      ]),
    );
  });
});
