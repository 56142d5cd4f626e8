import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConsoleLinkDetail } from '../../shared/api/contract';
import { renderScreen } from '../../test/render';
import { InstallmentHistory } from './installment-history';

const event = (e: Partial<ConsoleLinkDetail['planHistory'][number]>) => ({
  n: 1,
  at: '2027-01-15T15:00:00Z',
  action: 'installment.paid',
  amount: null,
  dueOn: null,
  reason: null,
  attempts: null,
  nextAttemptAt: null,
  transactionId: null,
  by: null,
  ...e,
});
const history = [
  event({ action: 'installment.notified', dueOn: '2027-01-15', amount: 150 }),
  event({ action: 'installment.declined', amount: 150, attempts: 1, reason: 'INSUFFICIENT FUNDS' }),
  event({ action: 'installment.paid', amount: 150, transactionId: 'TXN-9' }),
  event({ n: 2, action: 'installment.rescheduled', by: 'Dana Billing' }),
];

describe('an instalment’s history on the plan card', () => {
  it('lists each instalment’s events in words, oldest first, with the practice’s actions named', async () => {
    await renderScreen(<InstallmentHistory history={history} />);
    const region = screen.getByRole('region', { name: 'History of each installment' });
    const first = within(region).getByText('Installment 1').closest('details')!;
    const items = within(first)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Patient told of the charge on');
    expect(items[1]).toContain('Declined (try 1): INSUFFICIENT FUNDS');
    expect(items[2]).toContain('Paid $150.00, transaction TXN-9');
    // An action this screen has no words for yet still shows, with who did it.
    const second = within(region).getByText('Installment 2').closest('details')!;
    expect(within(second).getByRole('listitem').textContent).toContain('installment.rescheduled (by Dana Billing)');
  });

  it('speaks Spanish, and shows nothing without events', async () => {
    const { unmount } = await renderScreen(<InstallmentHistory history={history.slice(2, 3)} />, { lng: 'es' });
    expect(screen.getByText('Historial de cada cuota')).toBeInTheDocument();
    expect(screen.getByRole('listitem').textContent).toContain('Pagado $150.00, transacción TXN-9');
    unmount();
    await renderScreen(<InstallmentHistory history={[]} />);
    expect(screen.queryByText('History of each installment')).toBeNull();
  });
});
