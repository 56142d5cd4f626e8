/**
 * The Payments screen (issue 41, items 4 and 10): the rows and totals of the server's read model of money movements,
 * a plan's instalment charges among them with their number, and what is kept after refunds next to the approved total.
 * The money feature's panel and row actions are the app shell's to give; here they are left out.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PaymentReport } from '../../shared/api/contract';
import { json, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { PaymentsPage } from './payments-page';

const api = setupApiStub();
const base = {
  linkId: 'AbCdEfGhIjKlMnOpQrStUv12',
  firstName: 'Ana',
  lastName: 'Diaz',
  status: 'approved',
  paymentSourceId: 1,
  payer: 'patient',
  payorFullName: null,
  payorEmail: null,
  cardBrand: 'visa',
  cardLast4: '0002',
  approvalCode: null,
  failedAttempts: 0,
  coordinator: null,
  chosenAt: '2026-11-01T10:00:00Z',
} as const;
const report: PaymentReport = {
  rows: [
    {
      ...base,
      kind: 'installment',
      installment: { n: 2, count: 3, dueOn: '2026-11-20', status: 'refunded' },
      amount: 1416.66,
      paymentTypeId: 2,
      transactionId: 'tx-2',
      paidAt: '2026-11-20T15:00:00Z',
      refunded: 1416.66,
      refundState: 'refunded',
      net: 0,
    },
    {
      ...base,
      kind: 'installment',
      installment: { n: 1, count: 3, dueOn: '2026-11-10', status: 'paid' },
      amount: 1416.67,
      paymentTypeId: 2,
      transactionId: 'tx-1',
      paidAt: '2026-11-10T15:00:00Z',
      refunded: 0,
      refundState: 'none',
      net: 1416.67,
    },
    {
      ...base,
      kind: 'deposit',
      installment: null,
      amount: 750,
      paymentTypeId: 1,
      transactionId: 'tx-0',
      paidAt: '2026-11-01T10:00:00Z',
      refunded: 0,
      refundState: 'none',
      net: 750,
    },
  ],
  total: 3,
  totals: [
    {
      period: '2026-11-01',
      approvedCount: 3,
      approvedAmount: 3583.33,
      attemptedCount: 0,
      attemptedAmount: 0,
      refundedAmount: 1416.66,
      netAmount: 2166.67,
    },
  ],
  sum: { approvedCount: 3, approvedAmount: 3583.33, refundedAmount: 1416.66, netAmount: 2166.67 },
  timeZone: 'America/Chicago',
};

const page = <PaymentsPage MoneyPanel={() => null} RowMoney={() => null} />;

describe('the Payments screen', () => {
  it('lists the deposit and each instalment charge, and totals what was charged and what is kept', async () => {
    api.on('GET /api/admin/payments/report', json(report));
    await renderScreen(page);
    const list = await screen.findByRole('table', { name: 'Payments, newest first' });
    const rows = within(list).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(/\$1,416\.66\s*Installment 2 of 3/);
    expect(rows[1]).toHaveTextContent(/\$1,416\.67\s*Installment 1 of 3/);
    expect(rows[2]).not.toHaveTextContent('Installment');
    const totals = screen.getByRole('heading', { name: /Totals/ });
    expect(totals).toHaveTextContent('Approved total: $3,583.33 (3) · $2,166.67 kept after refunds');
    const perPeriod = screen.getAllByRole('table')[0]!;
    expect(within(perPeriod).getAllByRole('row')[1]).toHaveTextContent(/\$3,583\.33 \(3\)\$0\.00 \(0\)\$2,166\.67/);
  });

  it('in Spanish', async () => {
    api.on('GET /api/admin/payments/report', json(report));
    await renderScreen(page, { lng: 'es' });
    const list = await screen.findByRole('table', { name: 'Pagos, los más recientes primero' });
    expect(within(list).getAllByRole('row')[1]).toHaveTextContent('Cuota 2 de 3');
    expect(screen.getByRole('heading', { name: /Totales/ })).toHaveTextContent('retenido tras los reembolsos');
  });
});
