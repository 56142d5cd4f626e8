/**
 * A payments-screen row after a full refund by keyboard (issue 29, item 6; decision 0220): the Refund button is gone,
 * so focus goes to the row's refund state once the dialog has closed, never to <body>.
 */
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PaymentReport, RefundResult } from '../../shared/api/contract';
import { json, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { PaymentRowMoney } from './payment-row-money';

type Row = PaymentReport['rows'][0];
const api = setupApiStub();
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const row = { linkId: LINK, status: 'approved', amount: 200, refunded: 0, firstName: 'Ava', lastName: 'Martinez' };

const refund: RefundResult = {
  id: 'r1',
  linkId: LINK,
  kind: 'return',
  amount: 200,
  status: 'succeeded',
  reason: 'cancelled surgery',
  originalTransactionId: 'tx1',
  transactionId: 'tx2',
  failureMessage: null,
  requestedBy: 'admin@practice.test',
  flaggedAttemptId: null,
  installment: null,
  createdAt: '2026-01-02T10:00:00Z',
  completedAt: '2026-01-02T10:00:01Z',
  payment: { amount: 200, refunded: 200, remaining: 0, refundState: 'refunded' },
};

/** The row as the payments screen shows it: read from the ['payments'] query that a refund refreshes. */
function Screen(props: { refunded: () => number }) {
  const report = useQuery({
    queryKey: ['payments', {}],
    queryFn: async () => ({ ...row, refunded: props.refunded() }) as unknown as Row,
  });
  return report.data ? <PaymentRowMoney row={report.data} /> : null;
}

describe('payments row money', () => {
  it('after a full refund focus goes to the row\'s "Refunded", not <body>', async () => {
    let refunded = 0;
    api.on(`GET /api/admin/links/${LINK}/refund-options`, json({ settled: true, voidOnly: false }));
    api.on(`POST /api/admin/links/${LINK}/refund`, () => {
      refunded = 200;
      return json(refund);
    });
    const { user } = await renderScreen(<Screen refunded={() => refunded} />);
    await user.click(await screen.findByRole('button', { name: /^Refund\W* Ava Martinez$/ }));
    await user.type(await screen.findByLabelText(/^Reason/), 'cancelled surgery');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Refund $200.00' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: /^Refund\W* Ava Martinez$/ })).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).not.toBe(document.body);
      expect(document.activeElement).toHaveTextContent(/^Refunded$/);
    });
  });

  it('an instalment charge shows its refund state and no Refund action: its plan card refunds it', async () => {
    const installment = {
      ...row,
      kind: 'installment',
      installment: { n: 1, count: 2, dueOn: '2026-11-10', status: 'paid' },
      amount: 150,
      refunded: 50,
    } as unknown as Row;
    const deposit = { ...row, kind: 'deposit', installment: null, lastName: 'Deposit' } as unknown as Row;
    await renderScreen(
      <>
        <PaymentRowMoney row={installment} />
        <PaymentRowMoney row={deposit} />
      </>,
    );
    await screen.findByText('Partially refunded');
    // The deposit's row has its action (the session says admin may refund); the instalment's has none.
    await screen.findByRole('button', { name: /^Refund\W* Ava Deposit$/ });
    expect(screen.getAllByRole('button', { name: /^Refund/ })).toHaveLength(1);
  });
});
