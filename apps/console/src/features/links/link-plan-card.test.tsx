import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlanView } from '../../shared/api/contract';
import { json, refusal, setupApiStub, staffSession } from '../../test/api-stub';
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
    const table = within(card).getByRole('table', { name: 'Installments of the balance (projected)' });
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
    const table = within(card).getByRole('table', { name: 'Installments of the balance' });
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

const api = setupApiStub();
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const running: PlanView = {
  ...active,
  installments: [
    { n: 1, dueOn: '2027-01-31', amount: 150, status: 'paid' },
    { n: 2, dueOn: '2027-02-28', amount: 150, status: 'notified' },
  ],
};

describe('the practice’s actions on the plan card', () => {
  it('cancels the rest after a confirmation with a reason, and says the patient was told', async () => {
    const cancelled: PlanView = {
      ...running,
      status: 'cancelled',
      installments: [running.installments[0]!, { ...running.installments[1]!, status: 'cancelled' }],
    };
    api.on(`POST /api/admin/links/${LINK}/plan/cancel`, json({ plan: cancelled }));
    const { user } = await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />);
    await user.click(await screen.findByRole('button', { name: 'Cancel the rest of the plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the rest of this plan?' });
    expect(dialog).toHaveTextContent('No remaining installment ($150.00) will be charged');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the rest' }));
    expect(api.sent(`POST /api/admin/links/${LINK}/plan/cancel`)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/Reason/), 'surgery cancelled');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the rest' }));
    await screen.findByText('The rest of the plan is cancelled and the patient was sent a confirmation.');
    expect(api.sent(`POST /api/admin/links/${LINK}/plan/cancel`)[0]!.body).toEqual({ reason: 'surgery cancelled' });
  });

  it('shows a refusal in the dialog (a charge under way), in Spanish', async () => {
    api.on(
      `POST /api/admin/links/${LINK}/plan/cancel`,
      refusal(409, 'charge_in_progress', 'Too late to cancel the plan: …'),
    );
    const { user } = await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />, { lng: 'es' });
    await user.click(await screen.findByRole('button', { name: 'Cancelar el resto del plan' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Cancelar el resto de este plan?' });
    await user.type(within(dialog).getByLabelText(/Motivo/), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar el resto' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Hay un cobro de este plan en curso');
  });

  it('a charge with no answer says not to charge again, and so does a second press (409), EN and ES', async () => {
    api.on(`POST /api/admin/links/${LINK}/plan/installments/2/charge`, json({ outcome: 'unknown', plan: running }));
    const { user, unmount } = await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />);
    await user.click(await screen.findByRole('button', { name: 'Charge installment 2 now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Charge installment 2 now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Charge $150.00' }));
    const told = await screen.findByText(/^Charge: no answer from the card gateway yet/);
    expect(told).toHaveTextContent('the card may have been charged. Do not charge again');
    expect(told.textContent).not.toMatch(/try again/i);
    unmount();

    api.on(
      `POST /api/admin/links/${LINK}/plan/installments/2/charge`,
      refusal(409, 'charge_in_progress', 'Installment 2 was already sent to the card gateway …'),
    );
    const es = await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />, { lng: 'es' });
    await es.user.click(await screen.findByRole('button', { name: /Cobrar ahora la cuota 2/ }));
    const dialogEs = await screen.findByRole('dialog');
    await es.user.click(within(dialogEs).getByRole('button', { name: /^Cobrar .*150/ }));
    const alert = await within(dialogEs).findByRole('alert');
    expect(alert).toHaveTextContent('No lo vuelva a cobrar');
    expect(alert.textContent).not.toMatch(/inténtelo/i);
  });

  it('a held instalment (sale sent, answer unknown) shows a plain status instead of Charge now and Move, EN and ES', async () => {
    const held: PlanView = {
      ...running,
      installments: [
        running.installments[0]!,
        { ...running.installments[1]!, chargeInProgress: true, heldUntil: '2027-02-28T15:02:10Z' },
      ],
    };
    const { unmount } = await renderScreen(<LinkPlanCard plan={held} linkId={LINK} />);
    const table = await within(region()).findByRole('table', { name: 'Installments of the balance' });
    // Billing's buttons are there (Refund on the paid one), but none on the held one.
    expect(await screen.findByRole('button', { name: 'Refund installment 1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Charge installment 2 now' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move installment 2' })).toBeNull();
    expect(rows(table)[1]).toHaveTextContent(
      'Patient notifiedSent to the card gateway; the answer is not known yet. Do not charge again: Paylink confirms it within minutes.',
    );
    expect(rows(table)[1]!.textContent).not.toMatch(/try again/i);
    unmount();

    await renderScreen(<LinkPlanCard plan={held} linkId={LINK} />, { lng: 'es' });
    const tableEs = await within(region()).findByRole('table', { name: 'Cuotas del saldo' });
    expect(await screen.findByRole('button', { name: /Reembolsar.*1/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Cobrar ahora la cuota 2/ })).toBeNull();
    expect(rows(tableEs)[1]).toHaveTextContent('aún no se conoce la respuesta. No la vuelva a cobrar');
  });

  it('billing charges an instalment now and sees the outcome; a coordinator may move it but not charge or refund', async () => {
    api.on(`POST /api/admin/links/${LINK}/plan/installments/2/charge`, json({ outcome: 'paid', plan: running }));
    const { user, unmount } = await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />);
    expect(await screen.findByRole('button', { name: 'Refund installment 1' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Charge installment 2 now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Charge installment 2 now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Charge $150.00' }));
    await screen.findByText('Charge: paid.');
    unmount();

    api.on('GET /api/admin/session', json(staffSession('coordinator')));
    await renderScreen(<LinkPlanCard plan={running} linkId={LINK} />);
    expect(await screen.findByRole('button', { name: 'Move installment 2' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Charge installment 2 now' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Refund installment 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pause the plan' })).toBeInTheDocument();
  });
});
