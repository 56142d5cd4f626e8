/**
 * Card entry on a phone (issue 16, item 4): pasted and autofilled values keep working. The card number loses its
 * separators before any length rule and shows grouped; the expiry takes "MM/YY" and "MM / YY" and is kept as MMYY.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { PatientInfo } from '@paylink/shared';
import { fakeServer, renderStepPage, stepList } from '../../test/document-harness';
import { fakeGateway, type FakeGatewayScript } from '../../test/fake-gateway';
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

const user = userEvent.setup({ delay: null });
vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => window.localStorage.clear());
afterEach(() => cleanup());

async function renderPage(script?: FakeGatewayScript, over: Partial<PatientInfo> = {}) {
  fakeServer((c) => {
    if (c.path === '/api/converge') return { text: 'session-tok' };
    if (c.path === '/api/linkpaymenthistory' && c.method === 'PUT') {
      return { json: { linkId: 'x', transactionId: 'TXN-1', approvalCode: 'ABC123', amount: 500 } };
    }
    return { json: {} };
  });
  const gateway = fakeGateway(script);
  await renderStepPage({
    path: '/paymentauthorization',
    element: <PaymentAuthorizationPage loadGatewayGlobals={async () => gateway} />,
    steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4, '/patientcontract': 4 }),
    patient: { ...patient, ...over },
  });
  await screen.findByRole('heading', { name: 'Payment Authorization' });
  return gateway;
}

const payNow = () => screen.getByRole('button', { name: /PAY NOW|Processing payment/ });

it('a pasted "4000 0000 0000 0002" keeps its 16 digits, shows grouped and reaches the gateway as digits', async () => {
  const gateway = await renderPage();
  const number = screen.getByLabelText('Card number');
  await user.click(number);
  await user.paste('4000 0000 0000 0002');
  expect(number).toHaveValue('4000 0000 0000 0002');
  expect(screen.queryByText('The card number must have at least 13 digits')).not.toBeInTheDocument();
  await user.paste('4000-0000-0000-0002');
  expect(number).toHaveValue('4000 0000 0000 0002');
  await user.type(screen.getByLabelText('Expiration date (MMYY)'), '12/30');
  await user.type(screen.getByLabelText('CVC/CVV'), '123');
  await user.click(screen.getByLabelText('I agree to the terms'));
  expect(payNow()).toBeEnabled();
  await user.click(payNow());
  expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
  expect(gateway.calls.pay[0]).toMatchObject({ ssl_card_number: '4000000000000002', ssl_exp_date: '1230' });
});

it('groups an American Express number 4-6-5 as it is typed', async () => {
  await renderPage();
  const number = screen.getByLabelText('Card number');
  await user.type(number, '378282246310005');
  expect(number).toHaveValue('3782 822463 10005');
});

it.each(['12/30', '12 / 30', '1230', '12/2030'])(
  'the expiry accepts %j (autofill and typing) and keeps MMYY',
  async (typed) => {
    await renderPage();
    const expiry = screen.getByLabelText('Expiration date (MMYY)');
    await user.click(expiry);
    await user.paste(typed);
    expect(expiry).toHaveValue('1230');
    await user.tab();
    expect(expiry).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Check the expiration date')).not.toBeInTheDocument();
  },
);

async function fillAndPay(card = '4000000000000002') {
  await user.type(screen.getByLabelText('Card number'), card);
  await user.type(screen.getByLabelText('Expiration date (MMYY)'), '1230');
  await user.type(screen.getByLabelText('CVC/CVV'), '123');
  await user.click(screen.getByLabelText('I agree to the terms'));
  await user.click(payNow());
  return screen.findByRole('dialog');
}

it('a gateway error (nothing charged) has a neutral title; a decline keeps "Card Declined" (item 9)', async () => {
  const error = { errorCode: 4017, errorMessage: 'Request timed out' };
  await renderPage({ pay: (_d, cb) => cb.onError?.(error) });
  const dialog = await fillAndPay();
  expect(within(dialog).getByRole('heading', { name: 'Payment not completed' })).toBeInTheDocument();
  expect(within(dialog).queryByText('Card Declined')).not.toBeInTheDocument();
  expect(within(dialog).getByTestId('decline-message')).toHaveTextContent(/not charged/);
});

it('closing the decline modal puts focus on the card number, not <body>; Tab stays in the modal (item 10a)', async () => {
  const declined = { ssl_result_message: 'DECLINED', ssl_cvv2_response: 'N', ssl_avs_response: 'Y' };
  await renderPage({ pay: (_d, cb) => cb.onDeclined?.(declined) });
  const dialog = await fillAndPay('4000000000000051');
  expect(within(dialog).getByRole('heading', { name: 'Card Declined' })).toBeInTheDocument();
  const ok = within(dialog).getByRole('button', { name: 'OK' });
  await waitFor(() => expect(ok).toHaveFocus());
  for (let i = 0; i < 6; i++) {
    await user.tab();
    expect(ok).toHaveFocus();
  }
  await user.tab({ shift: true });
  expect(ok).toHaveFocus();
  await user.click(ok);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(screen.getByLabelText('Card number')).toHaveFocus());
  expect(document.activeElement).not.toBe(document.body);
});

it('on a partial payment the non-refundable sentence says "payment", on a deposit "deposit" (item 9)', async () => {
  await renderPage(undefined, { paymentType: 2, paymentAmount: 1500 });
  expect(screen.getByText(/this payment is non-refundable/)).toBeInTheDocument();
  expect(screen.queryByText(/deposit is non-refundable/)).not.toBeInTheDocument();
  cleanup();
  await renderPage();
  expect(screen.getByText(/this deposit is non-refundable/)).toBeInTheDocument();
});
