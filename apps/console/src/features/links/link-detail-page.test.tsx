import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConsoleLinkDetail, StaffPayment } from '../../shared/api/contract';
import { renderScreen } from '../../test/render';
import { Payment, People } from './link-detail-page';

const paid: StaffPayment = {
  status: 'approved',
  amount: 700,
  paymentTypeId: 1,
  paymentSourceId: 1,
  payer: 'patient',
  payorFullName: 'Maria Lopez',
  payorEmail: null,
  cardBrand: 'visa',
  cardLast4: '0002',
  transactionId: 'TXN-1',
  approvalCode: 'ABC123',
  paidAt: '2026-11-27T15:00:00Z',
  refunded: 0,
  refundState: 'none',
};

const link = (over: Partial<ConsoleLinkDetail> = {}): ConsoleLinkDetail => ({
  id: 'L1',
  url: 'https://pay.example.test/auth?id=L1',
  status: 'completed',
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria@example.com',
  phone: '+13055559101',
  address: '1 Main St',
  city: 'Miami',
  state: 'FL',
  zipCode: '33101',
  language: 'en',
  signInMethod: 'sms',
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
  procedureDescription: 'Consultation',
  coordinator: null,
  createdAt: '2026-11-20T15:00:00Z',
  expiresAt: '2026-12-20T15:00:00Z',
  cancelledAt: null,
  completedAt: '2026-11-27T15:00:00Z',
  lastActivityAt: null,
  steps: [],
  payment: paid,
  attempts: [],
  plan: null,
  planHistory: [],
  timeline: [],
  ...over,
});

const card = (name: string) => screen.getByRole('region', { name });
const fact = (region: HTMLElement, term: string) =>
  within(region).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('who paid, on the link page (issue 29, item 4)', () => {
  it('a patient who paid is not shown as a payor', async () => {
    await renderScreen(
      <>
        <People link={link()} />
        <Payment link={link()} />
      </>,
    );
    expect(within(card('Payor')).getByText('The patient pays.')).toBeInTheDocument();
    expect(fact(card('Payment'), 'Paid by')).toBe('Maria Lopez (the patient)');
    expect(fact(card('Payment'), 'Name on the card')).toBe('Maria Lopez');
  });

  it('a payor who paid is the payor, in Spanish too', async () => {
    const l = link({
      payorName: 'Pat Payor',
      payorEmail: 'pat@example.com',
      payment: {
        ...paid,
        paymentSourceId: 2,
        payer: 'payor',
        payorFullName: 'Patricia Payor',
        payorEmail: 'pp@example.com',
      },
    });
    await renderScreen(
      <>
        <People link={l} />
        <Payment link={l} />
      </>,
      { lng: 'es' },
    );
    expect(fact(card('Pagador'), 'Nombre')).toBe('Patricia Payor');
    expect(fact(card('Pago'), 'Pagado por')).toBe('Patricia Payor (pagador)');
  });
});

describe('phone and card as people read them (issue 29, item 4)', () => {
  it('shows +13055559101 as (305) 555-9101 and a visa card as "Visa •••• 0002", in both languages', async () => {
    const view = await renderScreen(
      <>
        <People link={link()} />
        <Payment link={link()} />
      </>,
    );
    expect(fact(card('Patient'), 'Phone')).toBe('(305) 555-9101');
    expect(fact(card('Payment'), 'Card')).toBe('Visa •••• 0002');
    view.unmount();
    await renderScreen(
      <>
        <People link={link()} />
        <Payment link={link()} />
      </>,
      { lng: 'es' },
    );
    expect(fact(card('Paciente'), 'Teléfono')).toBe('(305) 555-9101');
    expect(fact(card('Pago'), 'Tarjeta')).toBe('Visa •••• 0002');
  });
});
