/** The update-card page of a plan (issue 28, decision 0211): what it shows, the calls in order, and its failures. */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CARD_ON_FILE_AGREEMENT_VERSION, type PatientPlanView } from '@paylink/shared';
import { LINK_ID, fakeServer, renderStepPage, type Responder } from '../../test/document-harness';
import { fakeGateway, type FakeGatewayScript } from '../../test/fake-gateway';
import UpdateCardPage from './update-card-page';

const plan: PatientPlanView = {
  kind: 'installments',
  total: 5000,
  deposit: 500,
  balance: 4500,
  projected: false,
  installments: [
    { n: 1, dueOn: '2027-01-15', amount: 1500, status: 'paid' },
    // Declined on its due date, tried again 3 days later (issue 41: the page says which and when).
    {
      n: 2,
      dueOn: '2027-02-15',
      amount: 1500,
      status: 'notified',
      lastDeclinedOn: '2027-02-16',
      nextTryOn: '2027-02-19',
    },
    { n: 3, dueOn: '2027-03-15', amount: 1500, status: 'scheduled' },
  ],
  noticeDays: 7,
  scheduleLines: {
    en: ['February 15, 2027: $1,500.00', 'March 15, 2027: $1,500.00'],
    es: ['15 de febrero de 2027: $1,500.00', '15 de marzo de 2027: $1,500.00'],
  },
  card: { brand: 'visa', last4: '0341' },
  cardExpiresBefore: '2027-03-15',
  practice: { name: 'Bright Smile Surgery', phone: '555-0100', email: 'help@example.com' },
  agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: '2026-11-01T09:00:00Z' },
};

const base: Responder = (c) => {
  if (c.path === `/api/plans/${LINK_ID}`) return { json: plan };
  if (c.path.endsWith('/agreement')) {
    return { status: 201, json: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: '2026-11-27T09:00:00Z' } };
  }
  if (c.path.endsWith('/card/session'))
    return { status: 201, json: { sessionToken: 'verify-tok', updateId: 'u'.repeat(24) } };
  if (c.path.endsWith('/card')) return { json: { card: { brand: 'visa', last4: '0002' }, retrying: 1 } };
  return { json: {} };
};

async function renderPage(opts: { respond?: Responder; lng?: 'en' | 'es'; gateway?: FakeGatewayScript } = {}) {
  const http = fakeServer(opts.respond ?? base, { plans: true });
  const gateway = fakeGateway(opts.gateway);
  const view = await renderStepPage({
    path: '/updatecard',
    element: <UpdateCardPage loadGatewayGlobals={async () => gateway} />,
    lng: opts.lng,
  });
  return { ...view, ...http, gateway };
}

const user = userEvent.setup({ delay: null });

async function fillNewCard() {
  await user.type(screen.getByLabelText('Name on card'), 'Jane Doe');
  await user.type(screen.getByLabelText('Card number'), '4000000000000002');
  await user.type(screen.getByLabelText('Expiration date (MMYY)'), '1230');
  await user.type(screen.getByLabelText('CVC/CVV'), '123');
  await user.type(screen.getByLabelText('Billing zip code'), '73301');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/updatecard', () => {
  it('shows the open instalments and the card on file, then verifies the new card for $0 and saves it', async () => {
    const { calls, gateway } = await renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Update your card' });
    const open = await screen.findByTestId('open-installments');
    expect(open.textContent).toContain('February 15, 2027');
    expect(open.textContent).not.toContain('January 15, 2027'); // paid
    expect(screen.getByText(/Card on file now: Visa ending in 0341/)).toBeTruthy();
    expect(open.textContent).toContain('Declined on February 16, 2027. We will try again on February 19, 2027.');
    expect(screen.getByTestId('card-expiring').textContent).toBe(
      'Your card on file (Visa ending in 0341) expires before the payment due on March 15, 2027. Save a new card below so that payment can go through.',
    );

    await fillNewCard();
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    // Without the agreement nothing is sent.
    expect(screen.getAllByText(/agree to keep this card on file/).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.click(screen.getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' }));
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    await screen.findByTestId('card-saved');
    expect(screen.getByText('Your new card ending in 0002 is saved.')).toBeTruthy();
    // The card on file is the new one now, not the old one.
    expect(screen.getByTestId('card-on-file').textContent).toBe('Card on file now: Visa ending in 0002');
    expect(screen.queryByTestId('card-expiring')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `/api/plans/${LINK_ID}/agreement`,
      `/api/plans/${LINK_ID}/card/session`,
      `/api/plans/${LINK_ID}/card`,
    ]);
    expect(calls.at(-1)!.body).toEqual({ updateId: 'u'.repeat(24), transactionId: 'TXN-1' });
    expect(gateway.calls.efs).toEqual([{ ssl_txn_auth_token: 'verify-tok' }]);
    expect(gateway.calls.threeDS[0]).toMatchObject({ purchaseAmount: '0' });
  });

  it('a declined card: an alert that the card on file was not changed, and the card is not reported', async () => {
    const { calls } = await renderPage({
      gateway: { pay: (_d, cb) => setTimeout(() => cb.onDeclined?.({ ssl_result_message: 'DECLINED' }), 0) },
    });
    await screen.findByTestId('open-installments');
    await fillNewCard();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' }));
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The card was declined.');
    expect(alert.textContent).toContain('Your card on file was not changed.');
    expect(calls.some((c) => c.path === `/api/plans/${LINK_ID}/card`)).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save new card' })).toBeTruthy());
  });

  it("shows the server's refusal in place (409 with its message)", async () => {
    const respond: Responder = (c) =>
      c.path.endsWith('/card/session')
        ? { status: 409, json: { error: 'plan_closed', message: 'This payment plan has ended.' } }
        : base(c);
    await renderPage({ respond });
    await screen.findByTestId('open-installments');
    await fillNewCard();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' }));
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This payment plan has ended.');
  });

  it('speaks Spanish', async () => {
    await renderPage({ lng: 'es' });
    await screen.findByRole('heading', { level: 1, name: 'Actualice su tarjeta' });
    expect(await screen.findByRole('button', { name: 'Guardar nueva tarjeta' })).toBeTruthy();
    expect(screen.getByTestId('open-installments').textContent).toContain(
      'Rechazado el 16 de febrero de 2027. Lo intentaremos de nuevo el 19 de febrero de 2027.',
    );
  });

  it('a failed instalment says nothing more is tried and what to do: a new card, then a call', async () => {
    const failed: PatientPlanView = {
      ...plan,
      installments: [{ n: 2, dueOn: '2027-02-15', amount: 1500, status: 'failed' }],
      cardExpiresBefore: null,
    };
    await renderPage({
      respond: (c) =>
        c.path === `/api/plans/${LINK_ID}`
          ? { json: failed }
          : c.path.endsWith('/card')
            ? { json: { card: { brand: 'visa', last4: '0002' }, retrying: 0 } }
            : base(c),
    });
    const open = await screen.findByTestId('open-installments');
    expect(open.textContent).toContain(
      'Declined, and not tried again automatically. Save a new card below, then call Bright Smile Surgery at 555-0100 to have it charged.',
    );
    expect(screen.queryByTestId('card-expiring')).toBeNull();
    await fillNewCard();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' }));
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    const saved = await screen.findByTestId('card-saved');
    expect(saved.textContent).toContain(
      'The declined payment above is not charged automatically: call Bright Smile Surgery at 555-0100 to have it charged to this card.',
    );
    // Nothing else is to come: no promise of charges "on their dates".
    expect(saved.textContent).not.toContain('on their dates');
  });

  it('with only a failed payment open, the agreement names it as what the new card is for, EN and ES', async () => {
    const onlyFailed: PatientPlanView = {
      ...plan,
      installments: [{ n: 2, dueOn: '2027-02-15', amount: 1500, status: 'failed' }],
      scheduleLines: { en: [], es: [] },
      failedLines: { en: ['February 15, 2027: $1,500.00'], es: ['15 de febrero de 2027: $1,500.00'] },
      cardExpiresBefore: null,
    };
    const respond: Responder = (c) => (c.path === `/api/plans/${LINK_ID}` ? { json: onlyFailed } : base(c));
    const { calls } = await renderPage({ respond });
    const agreement = await screen.findByTestId('plan-agreement');
    expect(agreement.textContent).toContain(
      'to charge it for the payment of my plan that was declined, when Bright Smile Surgery charges it:',
    );
    expect(agreement.textContent).not.toContain('on this schedule');
    const list = screen.getByRole('list', { name: 'Charges to come' });
    expect(list.textContent).toBe('February 15, 2027: $1,500.00');
    await fillNewCard();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' }));
    await user.click(screen.getByRole('button', { name: 'Save new card' }));
    await screen.findByTestId('card-saved');
    const sent = calls.find((c) => c.path.endsWith('/agreement'))!.body as { text: string };
    expect(sent.text).toMatch(
      /that was declined, when Bright Smile Surgery charges it:\n\nFebruary 15, 2027: \$1,500\.00\n\n/,
    );
    cleanup();

    await renderPage({ respond, lng: 'es' });
    const es = await screen.findByTestId('plan-agreement');
    expect(es.textContent).toContain(
      'y a cobrar en ella el pago de mi plan que fue rechazado, cuando Bright Smile Surgery lo cobre:',
    );
    expect(es.textContent).toContain('15 de febrero de 2027: $1,500.00');
    expect(es.textContent).not.toContain('según este calendario');
  });
});
