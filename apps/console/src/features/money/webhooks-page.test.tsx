import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../../shared/api/contract';
import { held, json, refusal, staffSession, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { WebhooksPage } from './webhooks-page';

const api = setupApiStub();
const LIST = 'GET /api/admin/webhooks';
const CREATE = 'POST /api/admin/webhooks';
const endpoint: WebhookEndpoint = {
  id: 'wh1',
  url: 'https://books.example/paylink',
  events: ['payment.approved'],
  description: 'Bookkeeping',
  createdAt: '2026-01-02T10:00:00Z',
  secretRotatedAt: null,
};

async function openPage(opts: { lng?: 'en' | 'es' } = {}) {
  const view = await renderScreen(<WebhooksPage />, opts);
  await screen.findByRole('heading', { level: 2, name: /Endpoints|Destinos/ });
  return view;
}

const urlField = () => screen.getByLabelText('Endpoint URL');
const checkbox = (event: string) => screen.getByRole('checkbox', { name: event });

describe('webhooks screen', () => {
  it('is for admins only: another role is told so and nothing is asked of the server', async () => {
    api.on('GET /api/admin/session', json(staffSession('billing')));
    await renderScreen(<WebhooksPage />);
    expect(await screen.findByText('Your role cannot do this. Ask an admin if you need it.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Endpoint URL')).toBeNull();
    expect(api.sent(LIST)).toHaveLength(0);
  });

  it('lists the endpoints, or says there are none', async () => {
    api.on(LIST, json({ webhooks: [endpoint] }));
    await openPage();
    const card = await screen.findByTestId('webhook-endpoint');
    expect(within(card).getByRole('heading', { name: 'https://books.example/paylink' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Bookkeeping');
    expect(card).toHaveTextContent('payment.approved');

    api.on(LIST, json({ webhooks: [] }));
    await openPage();
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
  });

  it('starts with payment.approved and payment.refunded, and checks the address and events before sending', async () => {
    api.on(LIST, json({ webhooks: [] }));
    const { user } = await openPage();
    expect(urlField()).toHaveAccessibleDescription('HTTPS in production.');
    expect(checkbox('payment.approved')).toBeChecked();
    expect(checkbox('payment.refunded')).toBeChecked();
    expect(checkbox('link.created')).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(urlField()).toHaveAttribute('aria-invalid', 'true');
    expect(urlField()).toHaveAccessibleDescription(
      'HTTPS in production. Enter a full URL starting with https:// (or http:// in sandbox mode).',
    );

    await user.type(urlField(), 'ftp://books.example');
    await user.click(checkbox('payment.approved'));
    await user.click(checkbox('payment.refunded'));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(
      screen.getByText('Enter a full URL starting with https:// (or http:// in sandbox mode).'),
    ).toBeInTheDocument();
    expect(screen.getByText('Choose at least one event.')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Events' })).toHaveAccessibleDescription('Choose at least one event.');
    expect(api.sent(CREATE)).toHaveLength(0);
  });

  it('adds an endpoint: sends the trimmed address, the events and the description once, then shows the secret once', async () => {
    api.on(LIST, json({ webhooks: [] }));
    api.on(CREATE, ({ body }) => json({ ...endpoint, ...(body as object), id: 'wh2', secret: 'whsec_abc123' }, 201));
    const { user } = await openPage();
    await user.type(urlField(), '  http://localhost:9000/hook ');
    await user.type(screen.getByLabelText('Description (optional)'), ' Books ');
    await user.click(checkbox('link.created'));
    api.on(LIST, json({ webhooks: [{ ...endpoint, id: 'wh2', url: 'http://localhost:9000/hook' }] }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));

    const secret = await screen.findByTestId('webhook-secret');
    expect(secret).toHaveTextContent('Signing secret · http://localhost:9000/hook');
    expect(secret).toHaveTextContent('whsec_abc123');
    expect(secret).toHaveTextContent('Copy this secret into the receiver now: it is shown only once.');
    const [sent] = api.sent(CREATE);
    expect(sent!.body).toEqual({
      url: 'http://localhost:9000/hook',
      events: expect.arrayContaining(['link.created', 'payment.approved', 'payment.refunded']),
      description: 'Books',
    });
    expect((sent!.body as { events: string[] }).events).toHaveLength(3);
    expect(sent!.headers.get('Idempotency-Key')).toMatch(/^console-/);

    // The form is ready for the next one (the events chosen stay) and the list is asked again.
    await waitFor(() => expect(urlField()).toHaveValue(''));
    expect(screen.getByLabelText('Description (optional)')).toHaveValue('');
    expect(checkbox('link.created')).toBeChecked();
    expect(await screen.findByTestId('webhook-endpoint')).toHaveTextContent('http://localhost:9000/hook');
    expect(api.sent(LIST)).toHaveLength(2);

    await user.click(within(secret).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('leaves an empty description out, and waits (the button refuses a second press) while the server answers', async () => {
    api.on(LIST, json({ webhooks: [] }));
    const answer = held();
    api.on(CREATE, answer.answer);
    const { user } = await openPage();
    await user.type(urlField(), 'https://books.example/h');
    const add = screen.getByRole('button', { name: 'Add endpoint' });
    await user.click(add);
    await waitFor(() => expect(add).toHaveAttribute('aria-disabled', 'true'));
    await user.click(add);
    answer.release(json({ ...endpoint, secret: 's' }, 201));
    await screen.findByTestId('webhook-secret');
    await waitFor(() => expect(add).not.toHaveAttribute('aria-disabled'));
    expect(api.sent(CREATE)).toHaveLength(1);
    expect(api.sent(CREATE)[0]!.body).toEqual({
      url: 'https://books.example/h',
      events: expect.arrayContaining(['payment.approved', 'payment.refunded']),
    });
  });

  it("shows the server's refusal: its exact sentence in English, the general one in Spanish", async () => {
    api.on(LIST, json({ webhooks: [] }));
    api.on(
      CREATE,
      refusal(400, 'invalid_request', 'The webhook URL must use https.', { fields: { url: 'must use https' } }),
    );
    const { user, unmount } = await openPage();
    await user.type(urlField(), 'http://books.example/h');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The webhook URL must use https.');
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    expect(urlField()).toHaveValue('http://books.example/h');
    unmount();

    const es = await openPage({ lng: 'es' });
    await es.user.type(screen.getByLabelText('URL del destino'), 'http://books.example/h');
    await es.user.click(screen.getByRole('button', { name: 'Agregar destino' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Algunos de los datos enviados no son válidos. Revise los campos e inténtelo de nuevo.',
    );
  });

  it('speaks Spanish, validation messages included', async () => {
    api.on(LIST, json({ webhooks: [] }));
    const { user } = await openPage({ lng: 'es' });
    expect(screen.getByRole('heading', { name: 'Agregar un destino' })).toBeInTheDocument();
    expect(await screen.findByText('Aún no hay destinos.')).toBeInTheDocument();
    await user.click(checkbox('payment.approved'));
    await user.click(checkbox('payment.refunded'));
    await user.click(screen.getByRole('button', { name: 'Agregar destino' }));
    expect(
      screen.getByText('Escriba una URL completa que empiece por https:// (o http:// en modo de pruebas).'),
    ).toBeInTheDocument();
    expect(screen.getByText('Elija al menos un evento.')).toBeInTheDocument();
  });

  it('rotates the secret after a confirmation and shows the new one', async () => {
    api.on(LIST, json({ webhooks: [endpoint] }));
    api.on('POST /api/admin/webhooks/wh1/rotate-secret', json({ ...endpoint, secret: 'whsec_new' }));
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Rotate secret…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret' });
    expect(api.sent('POST /api/admin/webhooks/wh1/rotate-secret')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_new');
    expect(api.sent('POST /api/admin/webhooks/wh1/rotate-secret')[0]!.headers.get('Idempotency-Key')).toMatch(
      /^console-/,
    );
  });

  it('deletes an endpoint after a confirmation; a refusal stays in the dialog', async () => {
    api.on(LIST, json({ webhooks: [endpoint] }));
    api.on('DELETE /api/admin/webhooks/wh1', refusal(404, 'not_found', 'No such webhook.'));
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Delete…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this endpoint' });
    expect(dialog).toHaveTextContent(
      'Paylink stops sending events to https://books.example/paylink; deliveries still waiting are not sent.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'We could not find it. It may have been removed.',
    );

    api.on('DELETE /api/admin/webhooks/wh1', json(endpoint));
    api.on(LIST, json({ webhooks: [] }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(api.sent('DELETE /api/admin/webhooks/wh1')).toHaveLength(2);
  });

  it('shows the deliveries of an endpoint and replays one', async () => {
    api.on(LIST, json({ webhooks: [endpoint] }));
    api.on(
      'GET /api/admin/webhooks/wh1/deliveries',
      json({
        deliveries: [
          {
            id: 'd1',
            eventId: 'ev1',
            eventType: 'payment.approved',
            status: 'failed',
            attempts: [{ at: '2026-01-02T10:00:00Z', statusCode: 500, error: null, durationMs: 12 }],
            nextAttemptAt: null,
            createdAt: '2026-01-02T10:00:00Z',
            deliveredAt: null,
            replayOf: null,
          },
        ],
      }),
    );
    api.on('POST /api/admin/webhooks/deliveries/d1/replay', json({ id: 'd2' }, 201));
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Show deliveries' }));
    const row = await screen.findByTestId('webhook-delivery');
    expect(row).toHaveTextContent('Failed');
    expect(within(row).getByTestId('attempt-status')).toHaveTextContent('500');
    await user.click(within(row).getByRole('button', { name: 'Replay payment.approved ev1' }));
    expect(await screen.findByText('Sent again: a new delivery was queued.')).toBeInTheDocument();
    expect(api.sent('POST /api/admin/webhooks/deliveries/d1/replay')).toHaveLength(1);
  });
});
