import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { CARD_ON_FILE_AGREEMENT_VERSION, type PatientPlan } from '@paylink/shared';
import { HttpResponse, http, server, setupMsw } from '../../test/msw';
import { LINK_ID, renderApp, signedInSetup } from '../../test/render-app';
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

  it('for a plan link, shows the charges to come and the card they go on under the transaction id (issue 28)', async () => {
    const plan: PatientPlan = {
      kind: 'installments',
      total: 5000,
      deposit: 1250,
      balance: 3750,
      projected: false,
      installments: [
        { n: 1, dueOn: '2027-01-15', amount: 1875, status: 'scheduled' },
        { n: 2, dueOn: '2027-02-15', amount: 1875, status: 'scheduled' },
      ],
      noticeDays: 7,
      scheduleLines: {
        en: ['January 15, 2027: $1,875.00', 'February 15, 2027: $1,875.00'],
        es: ['15 de enero de 2027: $1,875.00', '15 de febrero de 2027: $1,875.00'],
      },
      card: { brand: 'Visa', last4: '0002' },
      practice: { name: 'Bella Vista Plastic Surgery', phone: '(555) 010-0123', email: 'billing@bv.example' },
      agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: '2026-11-27T09:00:00Z' },
    };
    server.use(http.get(`*/api/plans/${LINK_ID}`, () => HttpResponse.json(plan)));
    await renderApp('/confirmation', {
      lng: 'es',
      setup: (d) => {
        signedInSetup(d);
        d(setPatient(patient));
        d(setPayment({ ssl_txn_id: 'TXN-7', ssl_amount: '1250.00' }));
      },
    });
    const section = await screen.findByRole('region', { name: 'Sus próximos cobros' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['15 de enero de 2027: $1,875.00', '15 de febrero de 2027: $1,875.00']);
    expect(section).toHaveTextContent('Se cobrarán en su Visa terminada en 0002.');
    expect(screen.getByTestId('transaction-id')).toHaveTextContent('TXN-7');
  });

  it('for a link without a plan (404), shows no schedule', async () => {
    let asked = false;
    server.use(
      http.get(`*/api/plans/${LINK_ID}`, () => {
        asked = true;
        return HttpResponse.json({ error: 'not_found', message: 'No plan.' }, { status: 404 });
      }),
    );
    await renderApp('/confirmation', {
      setup: (d) => {
        signedInSetup(d);
        d(setPatient(patient));
        d(setPayment({ ssl_txn_id: 'TXN-8', ssl_amount: '1250.00' }));
      },
    });
    expect(await screen.findByTestId('transaction-id')).toHaveTextContent('TXN-8');
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByText('Your next charges')).not.toBeInTheDocument();
  });
});
