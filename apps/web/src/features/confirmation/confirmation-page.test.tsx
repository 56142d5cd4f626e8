import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { setupMsw } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { setPatient } from '../../store/patient-slice';
import { setPayment } from '../../store/payment-slice';
import type { AppDispatch } from '../../store/store';

setupMsw();

const patient = {
  firstName: 'Maria',
  lastName: 'Lopez',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  phone: '',
  email: '',
  paymentSource: 1,
  paymentType: 1,
  paymentAmount: 1250,
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
};

describe('/confirmation (spec screen 7)', () => {
  it('shows the check, the header, the Transaction ID, the USD amount, thanks and the receipt note', async () => {
    await renderApp('/confirmation', {
      state: { receipt: { channel: 'email', to: 'm***@example.com' } },
      setup: (d) => {
        d(setPatient(patient));
        d(setPayment({ ssl_txn_id: '221125A15-6C2D4F', ssl_amount: '1250.00' }));
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your payment was successful' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Payment successful' })).toBeInTheDocument();
    expect(screen.getByText('Transaction ID')).toBeInTheDocument();
    expect(screen.getByTestId('transaction-id')).toHaveTextContent('221125A15-6C2D4F');
    expect(screen.getByText('$1,250.00')).toBeInTheDocument();
    expect(screen.getByText('Thank you, Maria.')).toBeInTheDocument();
    expect(screen.getByText('Check your email for your receipt')).toBeInTheDocument();
    expect(screen.getByText('We sent it to m***@example.com.')).toBeInTheDocument();
  });

  it('says the receipt went by text message when it did, and promises nothing when nothing was sent (issue 10)', async () => {
    const setup = (d: AppDispatch) => {
      d(setPatient(patient));
      d(setPayment({ ssl_txn_id: 'T-1', ssl_amount: '500.00' }));
    };
    const sms = await renderApp('/confirmation', { setup, state: { receipt: { channel: 'sms', to: '***-***-0100' } } });
    expect(await screen.findByText('We sent your receipt by text message to ***-***-0100.')).toBeInTheDocument();
    expect(screen.queryByText('Check your email for your receipt')).toBeNull();
    sms.unmount();
    await renderApp('/confirmation', { setup, state: { receipt: { channel: 'none', to: '' } } });
    expect(await screen.findByText(/We had no e-mail address or phone number/)).toBeInTheDocument();
    expect(screen.queryByText('Check your email for your receipt')).toBeNull();
  });

  it('thanks the payor, not the patient, when the payor paid, and says the patient was told (issue 16, item 7)', async () => {
    await renderApp('/confirmation', {
      setup: (d) => {
        d(setPatient({ ...patient, paymentSource: 2, payorName: 'James Carter', payorEmail: 'james@example.com' }));
        d(setPayment({ ssl_txn_id: 'TXN-9', ssl_amount: '500.00' }));
      },
    });
    expect(await screen.findByText('Thank you, James, for paying for Maria Lopez.')).toBeInTheDocument();
    expect(screen.getByText('We have let Maria Lopez know that the payment was made.')).toBeInTheDocument();
    expect(screen.queryByText('Thank you, Maria.')).not.toBeInTheDocument();
  });

  it('without payment data shows the steps-complete message', async () => {
    await renderApp('/confirmation', { setup: (d) => d(setPatient(patient)) });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Process has been completed and Payment has been made. No further action required...',
      }),
    ).toBeInTheDocument();
  });

  it('without patient data shows the steps-complete message', async () => {
    await renderApp('/confirmation', { setup: (d) => d(setPayment({ ssl_txn_id: 'X1', ssl_amount: '500.00' })) });
    expect(await screen.findByRole('heading', { level: 1, name: /Process has been completed/ })).toBeInTheDocument();
  });
});
