/** The payment page of a link with a payment plan (issue 28): the card-on-file agreement, its own box, its order. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_ON_FILE_AGREEMENT_VERSION, type PatientInfo, type PatientPlan } from '@paylink/shared';
import { LINK_ID, fakeServer, renderStepPage, stepList, type Responder } from '../../test/document-harness';
import { fakeGateway } from '../../test/fake-gateway';
import PaymentAuthorizationPage from './payment-authorization-page';

const patient: PatientInfo = {
  firstName: 'Jane',
  lastName: 'Doe',
  address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipCode: '73301',
  phone: '5125550100',
  email: 'jane@example.com',
  paymentSource: 1,
  paymentType: 1,
  paymentAmount: 500,
  isPaymentLinkLocked: false,
  payorName: null,
  payorEmail: null,
};

const plan: PatientPlan = {
  kind: 'installments',
  total: 5000,
  deposit: null,
  balance: 4500,
  projected: true,
  installments: [
    { n: 1, dueOn: '2027-01-15', amount: 1500, status: 'scheduled' },
    { n: 2, dueOn: '2027-02-15', amount: 1500, status: 'scheduled' },
    { n: 3, dueOn: '2027-03-15', amount: 1500, status: 'scheduled' },
  ],
  noticeDays: 7,
  scheduleLines: {
    en: ['January 15, 2027: $1,500.00', 'February 15, 2027: $1,500.00', 'March 15, 2027: $1,500.00'],
    es: ['15 de enero de 2027: $1,500.00', '15 de febrero de 2027: $1,500.00', '15 de marzo de 2027: $1,500.00'],
  },
  card: null,
  practice: { name: 'Bright Smile Surgery', phone: '555-0100', email: 'help@example.com' },
  agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: null },
};

const PLAN_PATH = `/api/plans/${LINK_ID}`;
const AGREEMENT_PATH = `/api/plans/${LINK_ID}/agreement`;

const base: Responder = (c) => {
  if (c.path === PLAN_PATH) return { json: plan };
  if (c.path === AGREEMENT_PATH) {
    return { status: 201, json: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: '2026-11-27T09:00:00Z' } };
  }
  if (c.path === '/api/converge') return { text: 'session-tok' };
  if (c.path === '/api/linkpaymenthistory' && c.method === 'PUT') {
    return { json: { linkId: LINK_ID, transactionId: 'TXN-1', approvalCode: 'ABC123', amount: 500 } };
  }
  return { json: {} };
};

async function renderPage(opts: { respond?: Responder; plans?: boolean; lng?: 'en' | 'es' } = {}) {
  const http = fakeServer(opts.respond ?? base, { plans: opts.plans ?? true });
  const gateway = fakeGateway();
  const view = await renderStepPage({
    path: '/paymentauthorization',
    element: <PaymentAuthorizationPage loadGatewayGlobals={async () => gateway} />,
    steps: stepList(1, { '/patientinvoicedetail': 4, '/patientiddocs': 4, '/patientcontract': 4 }),
    patient,
    lng: opts.lng,
  });
  return { ...view, ...http, gateway };
}

const user = userEvent.setup({ delay: null });
const payNow = () => screen.getByRole('button', { name: /PAY NOW|Processing payment|PAGAR AHORA/ });

async function fillCard(lng: 'en' | 'es' = 'en') {
  const es = lng === 'es';
  await user.type(screen.getByLabelText(es ? 'Número de tarjeta' : 'Card number'), '4000000000000002');
  await user.type(screen.getByLabelText(es ? 'Fecha de vencimiento (MMAA)' : 'Expiration date (MMYY)'), '1230');
  await user.type(screen.getByLabelText('CVC/CVV'), '123');
  await user.click(screen.getByLabelText(es ? 'Acepto los términos' : 'I agree to the terms'));
}

beforeEach(() => window.localStorage.clear());
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a link without a plan', () => {
  it('asks for the plan, gets a 404 and shows the page as the spec has it: no agreement, no agreement call', async () => {
    const { calls } = await renderPage({ plans: false });
    await screen.findByRole('heading', { name: 'Payment Authorization' });
    await waitFor(() => expect(calls.some((c) => c.path === PLAN_PATH)).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('plan-loading')).not.toBeInTheDocument());
    expect(screen.queryByTestId('plan-agreement')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('I agree to keep my card on file for this plan')).not.toBeInTheDocument();
    await fillCard();
    expect(payNow()).toBeEnabled();
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    expect(calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api/plans/'))).toEqual([]);
  });
});

describe('a link with a plan', () => {
  it('shows the schedule, the card kept, the notice, how to cancel and whom to call, in English', async () => {
    await renderPage();
    const box = await screen.findByRole('group', { name: 'Card-on-file agreement' });
    const schedule = within(box).getByRole('list', { name: 'Charges to come' });
    expect(
      within(schedule)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['January 15, 2027: $1,500.00', 'February 15, 2027: $1,500.00', 'March 15, 2027: $1,500.00']);
    expect(box).toHaveTextContent('keep the card I enter below on file');
    expect(box).toHaveTextContent('7 days before each charge');
    expect(box).toHaveTextContent('by contacting Bright Smile Surgery at 555-0100 or help@example.com');
    await user.type(screen.getByLabelText('Card number'), '4000000000000002');
    expect(box).toHaveTextContent('keep Visa ending in 0002 on file');
    // The agreement box is labelled and described by the agreement's words.
    const agree = within(box).getByRole('checkbox', { name: 'I agree to keep my card on file for this plan' });
    expect(agree).toHaveAccessibleDescription(/I authorize Bright Smile Surgery/);
  });

  it('shows the agreement in Spanish', async () => {
    await renderPage({ lng: 'es' });
    const box = await screen.findByRole('group', { name: 'Autorización para guardar la tarjeta' });
    expect(
      within(box)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['15 de enero de 2027: $1,500.00', '15 de febrero de 2027: $1,500.00', '15 de marzo de 2027: $1,500.00']);
    await user.type(screen.getByLabelText('Número de tarjeta'), '4000000000000002');
    expect(box).toHaveTextContent('guardar Visa terminada en 0002 con su procesador');
    expect(box).toHaveTextContent('7 días antes de cada cobro');
    expect(within(box).getByLabelText('Acepto que se guarde mi tarjeta para este plan')).not.toBeChecked();
    expect(
      screen.getByText(
        'Complete todos los campos y marque las dos casillas, “Acepto los términos” y “Acepto que se guarde mi tarjeta para este plan”, para activar PAGAR AHORA.',
      ),
    ).toBeInTheDocument();
  });

  it('keeps PAY NOW disabled until both the terms box and the agreement box are ticked', async () => {
    await renderPage();
    await screen.findByRole('group', { name: 'Card-on-file agreement' });
    await fillCard();
    expect(payNow()).toBeDisabled();
    // The hint names both boxes (issue 41).
    expect(
      screen.getByText(
        'Fill in every field and check both boxes, “I agree to the terms” and “I agree to keep my card on file for this plan”, to enable PAY NOW.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByLabelText('I agree to keep my card on file for this plan'));
    expect(payNow()).toBeEnabled();
    await user.click(screen.getByLabelText('I agree to the terms'));
    expect(payNow()).toBeDisabled();
    await user.click(screen.getByLabelText('I agree to the terms'));
    await user.click(screen.getByLabelText('I agree to keep my card on file for this plan'));
    expect(payNow()).toBeDisabled();
  });

  it('records the agreement once, before asking for the checkout token, and never sends the card', async () => {
    const { calls } = await renderPage();
    await screen.findByRole('group', { name: 'Card-on-file agreement' });
    await fillCard();
    await user.click(screen.getByLabelText('I agree to keep my card on file for this plan'));
    const shown = screen.getByRole('group', { name: 'Card-on-file agreement' }).textContent!.replace(/\s+/g, '');
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    const agreement = calls.findIndex((c) => c.method === 'POST' && c.path === AGREEMENT_PATH);
    const token = calls.findIndex((c) => c.path === '/api/converge');
    expect(agreement).toBeGreaterThanOrEqual(0);
    expect(agreement).toBeLessThan(token);
    // The words as shown, naming the card as shown (its last four only), for the server to check and keep.
    expect(calls[agreement]!.body).toEqual({
      version: CARD_ON_FILE_AGREEMENT_VERSION,
      accepted: true,
      lang: 'en',
      cardLabel: 'Visa ending in 0002',
      text: expect.stringMatching(
        /^Card-on-file agreement\n\nI authorize Bright Smile Surgery to keep Visa ending in 0002 on file .*\n\nJanuary 15, 2027: \$1,500\.00\n\nFebruary 15, 2027: \$1,500\.00\n\nMarch 15, 2027: \$1,500\.00\n\n/s,
      ),
    });
    for (const p of (calls[agreement]!.body as { text: string }).text.split('\n\n')) {
      expect(shown).toContain(p.replace(/\s+/g, ''));
    }
    expect(calls.filter((c) => c.path === AGREEMENT_PATH)).toHaveLength(1);
    expect(JSON.stringify(calls)).not.toMatch(/4000000000000002|"123"/);
  });

  it('a failed agreement call stops the payment with a message; PAY NOW can try again', async () => {
    let failures = 1;
    const { calls } = await renderPage({
      respond: (c) =>
        c.path === AGREEMENT_PATH && failures-- > 0
          ? { status: 500, statusText: 'Internal Server Error', json: { error: 'internal', message: 'Boom.' } }
          : base(c),
    });
    await screen.findByRole('group', { name: 'Card-on-file agreement' });
    await fillCard();
    await user.click(screen.getByLabelText('I agree to keep my card on file for this plan'));
    await user.click(payNow());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not record your agreement to keep your card on file, so your card was not charged.',
    );
    expect(calls.filter((c) => c.path === '/api/converge')).toEqual([]);
    await waitFor(() => expect(payNow()).toBeEnabled());
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
    expect(calls.filter((c) => c.path === AGREEMENT_PATH)).toHaveLength(2);
  });

  it('a plan changed since the page loaded: nothing is charged, the new words are shown and the box asked again', async () => {
    let changed = true;
    let planReads = 0;
    const { calls } = await renderPage({
      respond: (c) => {
        if (c.path === PLAN_PATH) planReads++;
        if (c.path === AGREEMENT_PATH && changed) {
          changed = false;
          return { status: 409, statusText: 'Conflict', json: { error: 'agreement_changed', message: 'Changed.' } };
        }
        return base(c);
      },
    });
    await screen.findByRole('group', { name: 'Card-on-file agreement' });
    await fillCard();
    const box = () => screen.getByLabelText('I agree to keep my card on file for this plan');
    await user.click(box());
    await user.click(payNow());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your payment plan changed since this page was loaded, so your card was not charged.',
    );
    expect(calls.filter((c) => c.path === '/api/converge')).toEqual([]);
    await waitFor(() => expect(planReads).toBe(2));
    await waitFor(() => expect(box()).not.toBeChecked());
    expect(payNow()).toBeDisabled();
    await user.click(box());
    await user.click(payNow());
    expect(await screen.findByTestId('landed')).toHaveTextContent('/confirmation');
  });

  it('while the plan loads PAY NOW waits; a plan that cannot be loaded blocks paying until it is loaded', async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    let failures = 1;
    await renderPage({
      respond: async (c) => {
        if (c.path !== PLAN_PATH) return base(c);
        await slow;
        return failures-- > 0 ? { status: 503, statusText: 'Service Unavailable', json: {} } : base(c);
      },
    });
    expect(await screen.findByTestId('plan-loading')).toHaveTextContent('Loading your payment plan…');
    await fillCard();
    expect(payNow()).toBeDisabled();
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load your payment plan');
    expect(payNow()).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('group', { name: 'Card-on-file agreement' });
    await user.click(screen.getByLabelText('I agree to keep my card on file for this plan'));
    expect(payNow()).toBeEnabled();
  });
});
