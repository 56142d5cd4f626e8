import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RefundResult } from '../../shared/api/contract';
import { held, json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { RefundDialog, type RefundTarget } from './refund-dialog';

const api = setupApiStub();
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const ROUTE = `POST /api/admin/links/${LINK}/refund`;
const target: RefundTarget = { linkId: LINK, amount: 200, refunded: 50, cardBrand: 'Visa', cardLast4: '4242' };
const OPTIONS = `GET /api/admin/links/${LINK}/refund-options`;
// A settled sale unless a test says otherwise: refunds of any part are possible.
beforeEach(() => api.on(OPTIONS, json({ settled: true, voidOnly: false })));

const result = (amount: number): RefundResult => ({
  id: 'r1',
  linkId: LINK,
  kind: 'return',
  amount,
  status: 'succeeded',
  reason: 'duplicate',
  originalTransactionId: 'tx1',
  transactionId: 'tx2',
  failureMessage: null,
  requestedBy: 'admin@practice.test',
  flaggedAttemptId: null,
  installment: null,
  createdAt: '2026-01-02T10:00:00Z',
  completedAt: '2026-01-02T10:00:01Z',
  payment: { amount: 200, refunded: 50 + amount, remaining: 150 - amount, refundState: 'partially_refunded' },
});

async function open(opts: { lng?: 'en' | 'es'; target?: RefundTarget } = {}) {
  const onClose = vi.fn();
  const view = await renderScreen(<RefundDialog show target={opts.target ?? target} onClose={onClose} />, opts);
  await screen.findByRole('dialog');
  return { ...view, onClose };
}

describe('refund dialog', () => {
  it('shows what was paid, refunded and is left, and asks for a reason before anything is sent', async () => {
    const { user } = await open();
    const dialog = screen.getByRole('dialog', { name: 'Refund or void this payment' });
    expect(dialog).toHaveTextContent('Paid: $200.00');
    expect(dialog).toHaveTextContent('Already refunded: $50.00');
    expect(dialog).toHaveTextContent('Can still be refunded: $150.00');
    const amount = screen.getByLabelText('Amount to refund (US dollars)');
    expect(amount).toHaveAttribute('placeholder', '150.00');
    expect(amount).toHaveAccessibleDescription('Leave empty to refund everything that is left ($150.00).');

    await user.click(screen.getByRole('button', { name: 'Review' }));
    const reason = screen.getByLabelText(/^Reason/);
    expect(reason).toHaveAccessibleDescription('Enter the reason for the refund.');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(amount).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('heading', { name: 'Refund or void this payment' })).toBeInTheDocument();

    // A reason of spaces is no reason.
    await user.type(reason, '   ');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(screen.getByText('Enter the reason for the refund.')).toBeInTheDocument();
    expect(api.sent(ROUTE)).toHaveLength(0);
  });

  it('refuses an amount that is not one, or more than is left, in cents', async () => {
    const { user } = await open();
    const amount = screen.getByLabelText('Amount to refund (US dollars)');
    await user.type(screen.getByLabelText(/^Reason/), 'duplicate');

    await user.type(amount, '12.345');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(amount).toHaveAccessibleDescription(/Enter an amount like 120 or 120\.50\.$/);

    // The message follows the field as it changes, once the form was submitted.
    await user.clear(amount);
    await user.type(amount, '150.01');
    expect(await screen.findByText('At most $150.00 can be refunded.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '0');
    expect(await screen.findByText('Enter an amount like 120 or 120.50.')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '$150');
    await waitFor(() => expect(screen.queryByText(/Enter an amount|At most/)).toBeNull());
    expect(api.sent(ROUTE)).toHaveLength(0);
  });

  it('confirms, then sends the amount in dollars, the trimmed reason and one Idempotency-Key', async () => {
    api.on(ROUTE, json(result(50.5)));
    const { user, onClose } = await open();
    await user.type(screen.getByLabelText('Amount to refund (US dollars)'), '$50.5');
    await user.type(screen.getByLabelText(/^Reason/), '  charged twice ');
    await user.click(screen.getByRole('button', { name: 'Review' }));

    expect(screen.getByRole('heading', { name: 'Confirm the refund' })).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Refund $50.50 to the card Visa •••• 4242? This cannot be undone. The patient gets a refund receipt.',
    );
    expect(api.sent(ROUTE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Refund $50.50' }));

    await waitFor(() => expect(onClose).toHaveBeenCalledWith(expect.objectContaining({ amount: 50.5 })));
    const [sent] = api.sent(ROUTE);
    expect(sent!.body).toEqual({ amount: 50.5, reason: 'charged twice' });
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^console-[0-9a-f-]{32,36}$/);
    expect(sent!.headers.get('x-paylink-console')).toBe('1');
  });

  it('an empty amount refunds everything left: the confirmation says how much, the request has no amount', async () => {
    api.on(ROUTE, json(result(150)));
    const { user, onClose } = await open({ target: { ...target, cardLast4: null, cardBrand: null } });
    await user.type(screen.getByLabelText(/^Reason/), 'cancelled surgery');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Refund $150.00 to the card used for this payment?');
    await user.click(screen.getByRole('button', { name: 'Refund $150.00' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent(ROUTE)[0]!.body).toEqual({ reason: 'cancelled surgery' });
  });

  it('while the refund is on its way both buttons wait', async () => {
    const answer = held();
    api.on(ROUTE, answer.answer);
    const { user, onClose } = await open();
    await user.type(screen.getByLabelText(/^Reason/), 'duplicate');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const confirm = screen.getByRole('button', { name: 'Refund $150.00' });
    await user.click(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(confirm);
    answer.release(json(result(150)));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent(ROUTE)).toHaveLength(1);
  });

  it('a double click faster than the screen can redraw is still one refund: every request carries one key', async () => {
    const answer = held();
    api.on(ROUTE, answer.answer);
    const { user, onClose } = await open();
    await user.type(screen.getByLabelText(/^Reason/), 'duplicate');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    const confirm = screen.getByRole('button', { name: 'Refund $150.00' });
    act(() => {
      fireEvent.click(confirm);
      fireEvent.click(confirm);
    });
    await waitFor(() => expect(api.sent(ROUTE).length).toBeGreaterThan(0));
    answer.release(json(result(150)));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    // Today both clicks reach the server (the button is disabled one redraw later); the server answers the second
    // with the first's result because the key is the same.
    const keys = api.sent(ROUTE).map((r) => r.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^console-/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
  });

  it("shows the server's refusal, and going back makes the next try a new request (a new key)", async () => {
    api.on(ROUTE, refusal(409, 'refund_exceeds_payment', 'The refund is more than what is left of this payment.'));
    const { user, onClose } = await open();
    await user.type(screen.getByLabelText(/^Reason/), 'duplicate');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Refund $150.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The refund is more than what is left of this payment.');
    expect(onClose).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('alert')).toBeNull();
    // What was typed is still there.
    expect(screen.getByLabelText(/^Reason/)).toHaveValue('duplicate');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    await user.click(screen.getByRole('button', { name: 'Refund $150.00' }));
    await screen.findByRole('alert');
    const [first, second] = api.sent(ROUTE);
    expect(second!.headers.get('Idempotency-Key')).not.toBe(first!.headers.get('Idempotency-Key'));
  });

  it('cancel closes without sending', async () => {
    const { user, onClose } = await open();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledWith();
    expect(api.sent(ROUTE)).toHaveLength(0);
  });

  it('speaks Spanish: labels, amounts and messages', async () => {
    const { user } = await open({ lng: 'es' });
    const dialog = screen.getByRole('dialog', { name: 'Reembolsar o anular este pago' });
    expect(within(dialog).getByText('Aún se puede reembolsar: $150.00')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Monto a reembolsar (dólares estadounidenses)'), '151');
    await user.click(screen.getByRole('button', { name: 'Revisar' }));
    expect(screen.getByText('Se puede reembolsar como máximo $150.00.')).toBeInTheDocument();
    expect(screen.getByText('Escriba el motivo del reembolso.')).toBeInTheDocument();
  });
});

describe('an unsettled payment at the Review step (issue 29, item 4)', () => {
  const fresh: RefundTarget = { ...target, refunded: 0 };

  it('says before confirmation that only a void of the whole payment is possible today, and sends nothing', async () => {
    api.on(OPTIONS, json({ settled: false, voidOnly: true }));
    const { user } = await open({ target: fresh });
    await waitFor(() => expect(api.sent(OPTIONS)).toHaveLength(1));
    await user.type(screen.getByLabelText('Amount to refund (US dollars)'), '50');
    await user.type(screen.getByLabelText(/^Reason/), 'goodwill');
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This payment has not settled yet, so today it can only be cancelled (voided) in full: $200.00.',
    );
    const confirm = screen.getByRole('button', { name: 'Refund $50.00' });
    expect(confirm).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.clear(screen.getByLabelText('Amount to refund (US dollars)'));
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(screen.getByTestId('void-only')).toHaveTextContent(
      'This payment has not settled yet: it will be cancelled (voided) in full, $200.00.',
    );
    expect(screen.getByRole('button', { name: 'Refund $200.00' })).toBeEnabled();
    expect(api.sent(ROUTE)).toHaveLength(0);
  });

  it('in Spanish', async () => {
    api.on(OPTIONS, json({ settled: false, voidOnly: true }));
    const { user } = await open({ target: fresh, lng: 'es' });
    await waitFor(() => expect(api.sent(OPTIONS)).toHaveLength(1));
    await user.type(screen.getByLabelText(/^Monto a reembolsar/), '50');
    await user.type(screen.getByLabelText(/^Motivo/), 'cortesía');
    await user.click(screen.getByRole('button', { name: 'Revisar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este pago aún no se ha liquidado, así que hoy solo se puede cancelar (anular) por completo',
    );
  });
});
