import { screen, waitFor, within } from '@testing-library/react';
import { addDays, isoDateInZone } from '@paylink/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { held, json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { NewLinkPage } from './new-link-page';

const api = setupApiStub();
const TEMPLATES = 'GET /api/admin/settings/plans';
// No default plans unless a test gives some: the form is then as it always was.
beforeEach(() => api.on(TEMPLATES, json({ templates: [], source: 'practice', updatedAt: null })));
const CREATE = 'POST /api/admin/links';
const LINK = 'AbCdEfGhIjKlMnOpQrStUv12';
const created = { id: LINK, url: `https://pay.example/l/${LINK}`, expiresAt: '2026-02-01T00:00:00Z' };

async function openPage(lng: 'en' | 'es' = 'en') {
  const view = await renderScreen(<NewLinkPage />, { lng });
  return view;
}
const field = (label: string | RegExp) => screen.getByLabelText(label);

describe('new link screen', () => {
  it('says what is missing, in the console’s words, and sends nothing', async () => {
    const { user } = await openPage();
    expect(screen.getByRole('heading', { name: 'New link' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create link' }));

    expect(field('First name')).toHaveAccessibleDescription('Enter the first name.');
    expect(field('Last name')).toHaveAccessibleDescription('Enter the last name.');
    expect(field('First name')).toHaveFocus();

    // Automatic sign-in without a phone is by e-mail, so then the e-mail is required.
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(field('E-mail')).toHaveAccessibleDescription('Enter an e-mail address like name@example.com.');
    expect(field('First name')).not.toHaveAttribute('aria-invalid');
    expect(api.sent(CREATE)).toHaveLength(0);
  });

  it('checks phone, ZIP code and expiry with the server’s own schema', async () => {
    const { user } = await openPage();
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('Mobile phone'), '12');
    await user.type(field('ZIP code'), '9021');
    await user.type(field('Expires in'), '2 weeks');
    await user.click(screen.getByRole('button', { name: 'Create link' }));

    expect(field('Mobile phone')).toHaveAccessibleDescription(
      'Enter a US phone number like (555) 010-1234, or +country code and number.',
    );
    expect(field('ZIP code')).toHaveAccessibleDescription('Enter a US ZIP code like 90210 or 90210-1234.');
    expect(field('Expires in')).toHaveAccessibleDescription(
      'For example 14d (days), 36h (hours) or 90m (minutes). Empty: the practice default. Use a number of days (14d), hours (36h) or minutes (90m), at most 365 days.',
    );
    expect(field('First name')).not.toHaveAttribute('aria-invalid');
    expect(api.sent(CREATE)).toHaveLength(0);
  });

  it('creates the link: sends the form with the empty options left out, then offers to send it', async () => {
    api.on(CREATE, json(created, 201));
    const { user } = await openPage();
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('Mobile phone'), '(555) 010-1234');
    await user.type(field('ZIP code'), '90210');
    await user.type(field('Procedure (shown to the patient)'), 'Rhinoplasty');
    await user.selectOptions(field('Language of messages'), 'es');
    await user.click(screen.getByRole('button', { name: 'Create link' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Link created for Ana López.');
    expect(screen.getByTestId('link-url')).toHaveTextContent(created.url);
    expect(screen.getByRole('link', { name: 'Open the link’s page' })).toHaveAttribute('href', `/links/${LINK}`);
    expect(api.sent(CREATE)[0]!.body).toEqual({
      firstName: 'Ana',
      lastName: 'López',
      phone: '(555) 010-1234',
      email: '',
      address: '',
      city: '',
      state: '',
      zipCode: '90210',
      isPaymentLinkLocked: false,
      language: 'es',
      procedureDescription: 'Rhinoplasty',
    });

    // A phone and no e-mail: SMS is offered, e-mail is not.
    expect(screen.queryByRole('button', { name: 'Send by e-mail' })).toBeNull();
    api.on(`POST /api/admin/links/${LINK}/send`, json({ id: 'm1', channel: 'sms', to: '+15550101234' }, 201));
    await user.click(screen.getByRole('button', { name: 'Send by SMS' }));
    expect(await screen.findByText('Sent by SMS. It is in the outbox.')).toBeInTheDocument();
    expect(api.sent(`POST /api/admin/links/${LINK}/send`)[0]!.body).toEqual({ channel: 'sms' });

    await user.click(screen.getByRole('button', { name: 'Create another link' }));
    expect(field('First name')).toHaveValue('');
  });

  it('a payor, sign-in method, lock and expiry go in the request only when chosen', async () => {
    api.on(CREATE, json(created, 201));
    const { user } = await openPage();
    expect(screen.queryByLabelText('Payor’s name')).toBeNull();
    await user.click(field('A payor pays for this patient'));
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('E-mail'), 'ana@example.com');
    await user.type(field('Payor’s name'), 'Luis López');
    await user.type(field('Payor’s e-mail'), 'luis@');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(field('Payor’s e-mail')).toHaveAccessibleDescription('Enter the payor’s e-mail address.');
    expect(api.sent(CREATE)).toHaveLength(0);

    await user.type(field('Payor’s e-mail'), 'example.com');
    await user.click(field('Partial payment only (amount between $500 and $20,000)'));
    await user.selectOptions(field('The patient signs in with'), 'email');
    await user.type(field('Expires in'), ' 36h ');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByTestId('link-url');
    expect(api.sent(CREATE)[0]!.body).toMatchObject({
      email: 'ana@example.com',
      payorName: 'Luis López',
      payorEmail: 'luis@example.com',
      isPaymentLinkLocked: true,
      signInMethod: 'email',
      expiresIn: '36h',
    });
    expect(screen.getByRole('button', { name: 'Send by e-mail' })).toBeInTheDocument();
  });

  it('a payment plan: one balance date or installments, sent as the body’s plan', async () => {
    api.on(CREATE, json(created, 201));
    const { user } = await openPage();
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('Mobile phone'), '(555) 010-1234');
    expect(screen.queryByLabelText('Total price (US dollars)')).toBeNull();
    await user.selectOptions(field('After the deposit'), 'installments');
    await user.type(field('Total price (US dollars)'), '250');
    await user.clear(field('Number of installments'));
    await user.type(field('Number of installments'), '30');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(field('Number of installments')).toHaveAccessibleDescription('Choose 2 to 24 installments.');
    expect(field('First installment date')).toHaveAccessibleDescription('Choose a date after today.');

    // The total is checked against the link's lock once the plan's own fields are right.
    await user.clear(field('Number of installments'));
    await user.type(field('Number of installments'), '3');
    await user.type(field('First installment date'), '2098-01-31');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(field('Total price (US dollars)')).toHaveAccessibleDescription(
      'The patient pays a deposit now; the balance (total minus deposit) is charged to the same card later. ' +
        'Enter the total in dollars: more than $250 ($500 for partial payment only) and at most $20,000.',
    );
    expect(field('Number of installments')).not.toHaveAttribute('aria-invalid');
    expect(api.sent(CREATE)).toHaveLength(0);

    await user.clear(field('Total price (US dollars)'));
    await user.type(field('Total price (US dollars)'), '$5000');
    await user.selectOptions(field('Every'), 'two_weeks');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByTestId('link-url');
    expect(api.sent(CREATE)[0]!.body).toMatchObject({
      plan: { total: 5000, kind: 'installments', count: 3, every: 'two_weeks', firstDueOn: '2098-01-31' },
    });
  });

  it('a default plan fills the plan fields, from the surgery date or from today, and they stay editable', async () => {
    api.on(
      TEMPLATES,
      json({
        source: 'default',
        updatedAt: null,
        templates: [
          { name: null, kind: 'single', daysBeforeSurgery: 21 },
          { name: 'Three a month', kind: 'installments', count: 3, every: 'month', firstDueAfterDays: 30 },
        ],
      }),
    );
    const { user } = await openPage();
    const picker = await screen.findByLabelText('Start from a default plan');
    await user.selectOptions(picker, 'Balance 21 days before the surgery date');
    expect(field('After the deposit')).toHaveValue('single');
    await user.type(field('Surgery date'), '2098-03-01');
    expect(field('Balance date')).toHaveValue('2098-02-08');
    await user.selectOptions(picker, 'Three a month');
    expect(field('After the deposit')).toHaveValue('installments');
    expect(field('Number of installments')).toHaveValue(3);
    expect(field('Every')).toHaveValue('month');
    const today = isoDateInZone(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(field('First installment date')).toHaveValue(addDays(today, 30));
    await user.clear(field('Number of installments'));
    await user.type(field('Number of installments'), '4');
    expect(field('Number of installments')).toHaveValue(4);
  });

  it('a plan date the server refuses marks the date field, in Spanish too', async () => {
    api.on(
      CREATE,
      refusal(400, 'invalid_request', 'dueOn must be after today (2098-01-15)', {
        fields: { 'plan.dueOn': 'dueOn must be after today (2098-01-15)' },
      }),
    );
    const { user } = await openPage('es');
    await user.type(field('Nombre'), 'Ana');
    await user.type(field('Apellido'), 'López');
    await user.type(field('Correo electrónico'), 'ana@example.com');
    await user.selectOptions(field('Después del depósito'), 'single');
    await user.type(field('Precio total (dólares)'), '4000.50');
    await user.type(field('Fecha del saldo'), '2098-01-15');
    await user.click(screen.getByRole('button', { name: 'Crear enlace' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(field('Fecha del saldo')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Fecha del saldo')).toHaveAccessibleDescription('Elija una fecha posterior a hoy.');
    expect(api.sent(CREATE)[0]!.body).toMatchObject({ plan: { total: 4000.5, kind: 'single', dueOn: '2098-01-15' } });
  });

  it('the button waits while the server answers', async () => {
    const answer = held();
    api.on(CREATE, answer.answer);
    const { user } = await openPage();
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('E-mail'), 'ana@example.com');
    const create = screen.getByRole('button', { name: 'Create link' });
    await user.click(create);
    await waitFor(() => expect(create).toHaveAttribute('aria-disabled', 'true'));
    answer.release(json(created, 201));
    expect(await screen.findByTestId('link-url')).toBeInTheDocument();
    expect(api.sent(CREATE)).toHaveLength(1);
  });

  it('a refusal naming a field marks that field and says why', async () => {
    api.on(
      CREATE,
      refusal(400, 'invalid_request', 'email must be an e-mail address', {
        fields: { email: 'email must be an e-mail address' },
      }),
    );
    const { user } = await openPage();
    await user.type(field('First name'), 'Ana');
    await user.type(field('Last name'), 'López');
    await user.type(field('E-mail'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('email must be an e-mail address');
    expect(field('E-mail')).toHaveAttribute('aria-invalid', 'true');
    expect(field('E-mail')).toHaveAccessibleDescription('Enter an e-mail address like name@example.com.');
    expect(screen.queryByTestId('link-url')).toBeNull();
  });

  it('a refusal without fields is shown in Spanish too', async () => {
    api.on(CREATE, refusal(403, 'forbidden', 'Forbidden.'));
    const { user } = await openPage('es');
    expect(screen.getByRole('heading', { name: 'Nuevo enlace' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Crear enlace' }));
    expect(field('Nombre')).toHaveAccessibleDescription('Escriba el nombre.');
    await user.type(field('Nombre'), 'Ana');
    await user.type(field('Apellido'), 'López');
    await user.type(field('Correo electrónico'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Crear enlace' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Su rol no permite hacer esto. Pídaselo a un administrador si lo necesita.',
    );
    expect(within(screen.getByRole('alert')).queryByText(/Forbidden/)).toBeNull();
  });
});
