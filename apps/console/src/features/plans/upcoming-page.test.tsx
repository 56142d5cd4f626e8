import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UpcomingCharge } from '../../shared/api/contract';
import { held, json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { UpcomingChargesPage } from './upcoming-page';

const api = setupApiStub();
const LIST = 'GET /api/admin/plans/upcoming';
const charge: UpcomingCharge = {
  linkId: 'LinkAAAA1111',
  firstName: 'Ana',
  lastName: 'Diaz',
  n: 2,
  count: 3,
  dueOn: '2026-12-05',
  amount: 150,
  status: 'notified',
  cardBrand: 'Visa',
  cardLast4: '0002',
  cardExpiresBeforeDue: true,
  lastFailure: 'INSUFFICIENT FUNDS',
  attempts: 1,
  nextAttemptAt: null,
};
const answer = (charges: UpcomingCharge[], to = '2026-12-27') => json({ from: '2026-11-27', to, charges });

describe('upcoming charges screen', () => {
  it('shows loading, then a table of the charges with links to the link pages', async () => {
    const pending = held();
    api.on(LIST, pending.answer);
    await renderScreen(<UpcomingChargesPage />);
    expect(await screen.findByRole('status')).toBeInTheDocument();
    pending.release(answer([charge]));

    const table = await screen.findByRole('table', { name: 'Upcoming charges, by due date' });
    const row = within(table).getByTestId('upcoming-charge');
    expect(row).toHaveTextContent('Dec 5, 2026');
    expect(row).toHaveTextContent('Ana Diaz');
    expect(row).toHaveTextContent('Installment 2 of 3');
    expect(row).toHaveTextContent('$150.00');
    expect(row).toHaveTextContent('Patient notified');
    expect(row).toHaveTextContent('Visa ending in 0002');
    expect(row).toHaveTextContent('Expires before the due date');
    expect(row).toHaveTextContent('INSUFFICIENT FUNDS');
    expect(within(row).getByRole('link', { name: 'LinkAAAA1111' })).toHaveAttribute('href', '/links/LinkAAAA1111');
    expect(api.sent(LIST)[0]!.query.get('days')).toBe('30');
  });

  it('a failed charge stays listed and says nothing more is tried (issue 41)', async () => {
    api.on(LIST, answer([{ ...charge, status: 'failed', attempts: 4, lastFailure: 'DECLINED: NSF' }]));
    await renderScreen(<UpcomingChargesPage />);
    const row = await screen.findByTestId('upcoming-charge');
    expect(row).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('No more automatic tries: contact the patient, then charge now or move it.');
  });

  it('asks for 90 days when chosen, and says when nothing is due', async () => {
    api.on(LIST, answer([]));
    const { user } = await renderScreen(<UpcomingChargesPage />);
    expect(await screen.findByText('No charges in the next 30 days.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Show the next'), '90');
    expect(await screen.findByText('No charges in the next 90 days.')).toBeInTheDocument();
    expect(api.sent(LIST).map((r) => r.query.get('days'))).toEqual(['30', '90']);
  });

  it('shows the error with a retry', async () => {
    api.on(LIST, refusal(500, 'internal', 'Something went wrong.'));
    const { user } = await renderScreen(<UpcomingChargesPage />);
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    api.on(LIST, answer([charge]));
    await user.click(retry);
    expect(await screen.findByTestId('upcoming-charge')).toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    api.on(LIST, answer([{ ...charge, cardLast4: null, cardBrand: null, cardExpiresBeforeDue: false }]));
    await renderScreen(<UpcomingChargesPage />, { lng: 'es' });
    const table = await screen.findByRole('table', { name: 'Próximos cobros, por fecha' });
    expect(table).toHaveTextContent('Sin tarjeta');
    expect(table).toHaveTextContent('Paciente avisado');
    expect(screen.getByRole('heading', { name: 'Próximos cobros' })).toBeInTheDocument();
  });
});
