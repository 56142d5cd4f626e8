import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { ResendReceipt } from './link-detail-page';

const api = setupApiStub();
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const ROUTE = `POST /api/admin/links/${LINK}/receipt`;

describe('Resend receipt on a paid link (issue 29, item 4)', () => {
  it('asks first, then says where the receipt went', async () => {
    api.on(ROUTE, json({ channel: 'email', to: 'm•••@example.com' }, 201));
    const { user } = await renderScreen(<ResendReceipt id={LINK} />);
    await user.click(screen.getByRole('button', { name: 'Resend receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend the payment receipt?' });
    expect(dialog).toHaveTextContent('The receipt goes again where the first one went');
    expect(api.sent(ROUTE)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Resend receipt' }));
    await waitFor(() => expect(api.sent(ROUTE)).toHaveLength(1));
    expect(await screen.findByRole('status')).toHaveTextContent('The receipt was sent again to m•••@example.com.');
  });

  it('a resend a moment ago: says how long to wait, in Spanish', async () => {
    api.on(
      ROUTE,
      () =>
        new Response(JSON.stringify({ error: 'rate_limited', message: 'wait', retryAfterSeconds: 540 }), {
          status: 429,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const { user } = await renderScreen(<ResendReceipt id={LINK} />, { lng: 'es' });
    await user.click(screen.getByRole('button', { name: 'Reenviar recibo' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Reenviar recibo' }));
    await waitFor(() => expect(dialog).toHaveTextContent('540'));
  });

  it('nowhere to send it: says so', async () => {
    api.on(ROUTE, refusal(409, 'no_receipt_address', 'none'));
    const { user } = await renderScreen(<ResendReceipt id={LINK} />);
    await user.click(screen.getByRole('button', { name: 'Resend receipt' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Resend receipt' }));
    await waitFor(() =>
      expect(dialog).toHaveTextContent('There is no e-mail address or phone (that accepts texts) on file'),
    );
  });
});
