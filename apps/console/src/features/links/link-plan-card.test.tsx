import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlanView } from '../../shared/api/contract';
import { renderScreen } from '../../test/render';
import { LinkPlanCard } from './link-plan-card';

const projected: PlanView = {
  kind: 'installments',
  status: 'pending',
  every: 'month',
  total: 500,
  balance: 500,
  deposit: null,
  projected: true,
  installments: [
    { n: 1, dueOn: '2027-01-31', amount: 250, status: 'scheduled' },
    { n: 2, dueOn: '2027-02-28', amount: 250, status: 'scheduled' },
  ],
  card: null,
  createdAt: '2026-11-27T10:00:00Z',
};
const active: PlanView = {
  ...projected,
  status: 'active',
  balance: 300,
  deposit: 200,
  projected: false,
  installments: [
    { n: 1, dueOn: '2027-01-31', amount: 150, status: 'paid' },
    { n: 2, dueOn: '2027-02-28', amount: 150, status: 'failed' },
  ],
  card: { brand: 'Visa', last4: '4242', expMonth: 3, expYear: 2028 },
};

const region = () => screen.getByRole('region', { name: /Payment plan|Plan de pagos/ });
const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('the payment plan card', () => {
  it('says first that the instalments are projected before the deposit', async () => {
    await renderScreen(<LinkPlanCard plan={projected} />);
    const card = region();
    const note = within(card).getByRole('note');
    expect(note).toHaveTextContent('Projected: the deposit is not paid yet.');
    const table = within(card).getByRole('table', { name: 'Instalments of the balance (projected)' });
    // The note comes before the table in reading order.
    expect(note.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(card).toHaveTextContent('Waiting for the deposit');
    expect(card).toHaveTextContent('Not paid yet');
    expect(card).toHaveTextContent('No card kept yet');
    // Calendar days stay as written, whatever the browser's zone.
    expect(rows(table).map((r) => r.textContent)).toEqual([
      '1Jan 31, 2027$250.00Scheduled',
      '2Feb 28, 2027$250.00Scheduled',
    ]);
  });

  it('shows the paid deposit, the balance, each instalment status and the card kept', async () => {
    await renderScreen(<LinkPlanCard plan={active} />);
    const card = region();
    expect(within(card).queryByRole('note')).toBeNull();
    expect(card).toHaveTextContent('Total$500.00');
    expect(card).toHaveTextContent('Deposit$200.00');
    expect(card).toHaveTextContent('Balance$300.00');
    expect(card).toHaveTextContent('Plan statusActive');
    expect(card).toHaveTextContent('Visa ending in 4242 (expires 03/2028)');
    const table = within(card).getByRole('table', { name: 'Instalments of the balance' });
    expect(rows(table).map((r) => r.textContent)).toEqual(['1Jan 31, 2027$150.00Paid', '2Feb 28, 2027$150.00Failed']);
  });

  it('speaks Spanish', async () => {
    await renderScreen(<LinkPlanCard plan={projected} />, { lng: 'es' });
    const card = region();
    expect(within(card).getByRole('note')).toHaveTextContent('Proyectado');
    expect(within(card).getByRole('table', { name: 'Cuotas del saldo (proyectadas)' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Esperando el depósito');
  });
});
