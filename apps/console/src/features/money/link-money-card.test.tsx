/**
 * The link page's money card of a plan link (issue 41, item 10): it counts the deposit and every instalment charged,
 * from the server's read model of money movements, and a refund of an instalment names its instalment. Before, a plan
 * link read "$0.00 of $750.00 refunded · Void $1,416.66": the deposit alone, and a void of nothing it showed.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConsoleLinkDetail, LinkRefunds } from '../../shared/api/contract';
import { json, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { LinkMoneyCard } from './link-money-card';

const api = setupApiStub();
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const link = {
  id: LINK,
  payment: {
    status: 'approved',
    amount: 750,
    paymentTypeId: 1,
    paymentSourceId: 1,
    payer: 'patient',
    payorFullName: null,
    payorEmail: null,
    cardBrand: 'visa',
    cardLast4: '0002',
    transactionId: 'tx-deposit',
    approvalCode: 'A1',
    paidAt: '2026-11-01T10:00:00Z',
    refunded: 0,
    refundState: 'none',
  },
} as unknown as ConsoleLinkDetail;

const planRefunds: LinkRefunds = {
  refunds: [
    {
      id: 'r1',
      linkId: LINK,
      kind: 'void',
      amount: 1416.66,
      status: 'succeeded',
      reason: 'Charged on the wrong day',
      originalTransactionId: 'tx-inst-2',
      transactionId: 'tx-void',
      failureMessage: null,
      requestedBy: 'billing@practice.test',
      flaggedAttemptId: null,
      installment: { n: 2, count: 3 },
      createdAt: '2026-11-20T15:00:00Z',
      completedAt: '2026-11-20T15:00:01Z',
    },
  ],
  // $750.00 deposit + 2 × $1,416.66 charged; the second instalment voided.
  money: { paid: 3583.32, refunded: 1416.66, net: 2166.66 },
};

const name = /Refunds and evidence|Reembolsos y pruebas/;
const card = () => screen.getByRole('region', { name });

describe('the money card of a plan link', () => {
  it('counts the deposit and the instalments, and names the instalment a void gave back', async () => {
    api.on(`GET /api/admin/links/${LINK}/refunds`, json(planRefunds));
    await renderScreen(<LinkMoneyCard link={link} />);
    // The card shows once the session says the role may refund.
    await screen.findByRole('region', { name });
    await within(card()).findByText(/installment 2 of 3/);
    expect(card()).toHaveTextContent('$1,416.66 of $3,583.32 refunded');
    expect(card()).toHaveTextContent('Partially refunded');
    expect(card()).toHaveTextContent('Deposit and installments: $3,583.32 charged, $2,166.66 kept.');
    expect(within(card()).getByRole('listitem')).toHaveTextContent(/Void \$1,416\.66 · installment 2 of 3 · Done/);
    // The Refund… action gives back the deposit: the card says where an instalment is refunded.
    expect(card()).toHaveTextContent('refund an installment from the Payment plan card');
  });

  it('says the same in Spanish', async () => {
    api.on(`GET /api/admin/links/${LINK}/refunds`, json(planRefunds));
    await renderScreen(<LinkMoneyCard link={link} />, { lng: 'es' });
    await screen.findByRole('region', { name });
    await within(card()).findByText(/cuota 2 de 3/);
    expect(card()).toHaveTextContent('$1,416.66 de $3,583.32 reembolsados');
    expect(card()).toHaveTextContent('Depósito y cuotas: $3,583.32 cobrados, $2,166.66 retenidos.');
    expect(within(card()).getByRole('listitem')).toHaveTextContent(/Anulación \$1,416\.66 · cuota 2 de 3 · Hecho/);
  });

  it('a link without a plan reads its payment alone, with no plan line', async () => {
    api.on(
      `GET /api/admin/links/${LINK}/refunds`,
      json({ refunds: [], money: { paid: 750, refunded: 0, net: 750 } } satisfies LinkRefunds),
    );
    await renderScreen(<LinkMoneyCard link={link} />);
    // The card shows once the session says the role may refund.
    await screen.findByRole('region', { name });
    await within(card()).findByText('No refunds yet.');
    expect(card()).toHaveTextContent('$0.00 of $750.00 refunded');
    expect(screen.queryByTestId('money-card-plan')).toBeNull();
  });
});
