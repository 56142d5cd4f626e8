import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnswerOf } from '../../shared/api/client';
import type { consoleEndpoints, ContractsResult, ContractUploadResult } from '../../shared/api/contract';
import { held, json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { SettingsPage } from './settings-page';

const api = setupApiStub();
const TEMPLATES = '/api/admin/settings/plans';
beforeEach(() =>
  api.on(
    `GET ${TEMPLATES}`,
    json({ source: 'default', updatedAt: null, templates: [{ name: null, kind: 'single', daysBeforeSurgery: 21 }] }),
  ),
);
const SETTINGS = 'GET /api/admin/settings';
const SAVE = 'PUT /api/admin/settings';
const PLAN = 'GET /api/admin/messaging/reminder-plan';
const SAVE_PLAN = 'PUT /api/admin/messaging/reminder-plan';
const CONTRACTS = 'GET /api/admin/settings/contracts';

const settings: AnswerOf<typeof consoleEndpoints.settings> = {
  effective: {
    name: 'Bella Vista',
    phone: '(555) 000-0000',
    email: 'billing@bv.example',
    logoUrl: 'https://bv.example/logo.png',
    timeZone: 'America/Chicago',
  },
  defaults: {
    name: 'Paylink Practice',
    phone: '(555) 000-0000',
    email: 'office@practice.test',
    logoUrl: null,
    timeZone: 'America/New_York',
  },
  overrides: {
    name: 'Bella Vista',
    phone: null,
    email: 'billing@bv.example',
    logoUrl: 'https://bv.example/logo.png',
    timeZone: 'America/Chicago',
  },
  updatedAt: '2026-01-02T10:00:00Z',
};
const plan: AnswerOf<typeof consoleEndpoints.reminderPlan> = {
  unopenedAfter: '24h',
  stalledAfter: '48h',
  beforeExpiry: ['72h', '24h'],
  quietHours: { start: 21, end: 8 },
  minGap: '24h',
  source: 'env',
};
const contracts: ContractsResult = {
  maxMb: 15,
  maxPages: 100,
  contracts: [
    { lang: 'en', source: 'sample', fallback: false, upload: null },
    { lang: 'es', source: 'sample', fallback: true, upload: null },
  ],
};

async function openPage(lng: 'en' | 'es' = 'en') {
  api.on(SETTINGS, json(settings));
  api.on(PLAN, json(plan));
  api.on(CONTRACTS, json(contracts));
  const view = await renderScreen(<SettingsPage />, { lng });
  await screen.findByDisplayValue('Bella Vista');
  return view;
}
const field = (label: string) => screen.getByLabelText(label);
const practiceForm = () => field('Practice name').closest('form')!;

describe('practice settings', () => {
  it("shows the practice's own values, each with the server's default beside it", async () => {
    await openPage();
    expect(screen.getByRole('heading', { name: 'Practice settings' })).toBeInTheDocument();
    expect(field('Practice name')).toHaveValue('Bella Vista');
    expect(field('Practice name')).toHaveAccessibleDescription('Default: Paylink Practice');
    expect(field('Support phone')).toHaveValue('');
    expect(field('Logo address (https://…)')).toHaveAccessibleDescription('Default: —');
    expect(screen.getByRole('img', { name: 'Current logo' })).toHaveAttribute('src', 'https://bv.example/logo.png');
    expect(screen.getByText(/^Last changed /)).toBeInTheDocument();
  });

  it('saves: an emptied field goes back to the default (null), the others trimmed; the answer fills the form', async () => {
    api.on(SAVE, ({ body }) =>
      json({
        ...settings,
        overrides: { ...settings.overrides, ...(body as object) },
        effective: { ...settings.effective, name: 'Paylink Practice', phone: '(555) 777-0000' },
      }),
    );
    const { user } = await openPage();
    await user.clear(field('Practice name'));
    await user.type(field('Support phone'), ' (555) 777-0000 ');
    await user.click(within(practiceForm()).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(api.sent(SAVE)[0]!.body).toEqual({
      name: null,
      phone: '(555) 777-0000',
      email: 'billing@bv.example',
      logoUrl: 'https://bv.example/logo.png',
      timeZone: 'America/Chicago',
    });
    expect(field('Support phone')).toHaveValue('(555) 777-0000');
    expect(field('Practice name')).toHaveValue('');
  });

  it('checks e-mail, logo and time zone with the shared schema before sending', async () => {
    const { user } = await openPage();
    await user.clear(field('Support e-mail'));
    await user.type(field('Support e-mail'), 'billing@');
    await user.clear(field('Logo address (https://…)'));
    await user.type(field('Logo address (https://…)'), 'http://bv.example/logo.png');
    await user.clear(field('Time zone'));
    await user.type(field('Time zone'), 'Mars/Olympus');
    await user.click(within(practiceForm()).getByRole('button', { name: 'Save' }));

    expect(field('Support e-mail')).toHaveAccessibleDescription(
      'Default: office@practice.test Enter an e-mail address like name@example.com.',
    );
    expect(field('Logo address (https://…)')).toHaveAccessibleDescription(
      'Default: — Enter the logo’s address, starting with https://.',
    );
    expect(field('Time zone')).toHaveAccessibleDescription(
      'Default: America/New_York Enter a time zone like America/Chicago.',
    );
    expect(field('Practice name')).not.toHaveAttribute('aria-invalid');
    expect(api.sent(SAVE)).toHaveLength(0);
  });

  it('the Save button waits for the answer; a refusal is shown and nothing says saved', async () => {
    const answer = held();
    api.on(SAVE, answer.answer);
    const { user } = await openPage();
    const save = within(practiceForm()).getByRole('button', { name: 'Save' });
    await user.click(save);
    await waitFor(() => expect(save).toHaveAttribute('aria-disabled', 'true'));
    answer.release(refusal(403, 'forbidden', 'Admins only.'));
    expect(await within(practiceForm()).findByRole('alert')).toHaveTextContent(
      'Your role cannot do this. Ask an admin if you need it.',
    );
    expect(save).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByText('Settings saved.')).toBeNull();
  });

  it('when the settings cannot be read, says why and offers to try again', async () => {
    api.on(SETTINGS, refusal(403, 'forbidden', 'Admins only.'));
    api.on(PLAN, json(plan));
    api.on(CONTRACTS, json(contracts));
    const { user } = await renderScreen(<SettingsPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your role cannot do this. Ask an admin if you need it.');
    api.on(SETTINGS, json(settings));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByDisplayValue('Bella Vista')).toBeInTheDocument();
  });

  it('speaks Spanish, validation messages included', async () => {
    const { user } = await openPage('es');
    expect(screen.getByRole('heading', { name: 'Configuración de la práctica' })).toBeInTheDocument();
    const email = screen.getByLabelText('Correo de atención');
    await user.clear(email);
    await user.type(email, 'x');
    await user.click(within(email.closest('form')!).getByRole('button', { name: 'Guardar' }));
    expect(email).toHaveAccessibleDescription(
      'Predeterminado: office@practice.test Escriba un correo electrónico como nombre@ejemplo.com.',
    );
  });
});

describe('reminder plan', () => {
  const planForm = () => screen.getByLabelText('Not opened: remind after').closest('form')!;

  it('shows where the plan comes from and saves it as the API takes it', async () => {
    api.on(SAVE_PLAN, ({ body }) => json({ ...(body as object), source: 'practice' }));
    const { user } = await openPage();
    expect(await screen.findByText(/The server’s default plan/)).toBeInTheDocument();
    expect(field('Before the link expires')).toHaveValue('72h, 24h');
    await user.clear(field('Not opened: remind after'));
    await user.clear(field('Before the link expires'));
    await user.type(field('Before the link expires'), '48H, 12h');
    await user.click(within(planForm()).getByRole('button', { name: 'Save reminders' }));

    expect(await screen.findByText('Reminder plan saved.')).toBeInTheDocument();
    expect(api.sent(SAVE_PLAN)[0]!.body).toEqual({
      unopenedAfter: null,
      stalledAfter: '48h',
      beforeExpiry: ['48h', '12h'],
      quietHours: { start: 21, end: 8 },
      minGap: '24h',
    });
    expect(screen.getByText('This practice’s own plan.')).toBeInTheDocument();
  });

  it('refuses a duration that is not one, and quiet hours that start when they end', async () => {
    const { user } = await openPage();
    await screen.findByText(/The server’s default plan/);
    await user.clear(field('Stalled at a step: remind after'));
    await user.type(field('Stalled at a step: remind after'), 'soon');
    await user.selectOptions(field('Until'), '21');
    await user.click(within(planForm()).getByRole('button', { name: 'Save reminders' }));

    expect(field('Stalled at a step: remind after')).toHaveAccessibleDescription(
      /Use a duration like 30m, 24h or 3d\.$/,
    );
    expect(field('Until')).toHaveAccessibleDescription('The start and the end must differ.');
    expect(api.sent(SAVE_PLAN)).toHaveLength(0);

    // Quiet hours off: no hours are sent.
    await user.selectOptions(field('Until'), '8');
    await user.clear(field('Stalled at a step: remind after'));
    await user.click(field('No text messages at night in the patient’s time zone'));
    expect(screen.queryByLabelText('Until')).toBeNull();
    api.on(SAVE_PLAN, ({ body }) => json({ ...(body as object), source: 'practice' }));
    await user.click(within(planForm()).getByRole('button', { name: 'Save reminders' }));
    await screen.findByText('Reminder plan saved.');
    expect(api.sent(SAVE_PLAN)[0]!.body).toMatchObject({ stalledAfter: null, quietHours: null });
  });
});

describe('contracts', () => {
  it('says which contract is in effect per language, and asks for a file before uploading', async () => {
    const { user } = await openPage();
    const english = await screen.findByRole('group', { name: 'English contract' });
    expect(english).toHaveTextContent('In effect: the sample contract that comes with Paylink.');
    expect(screen.getByRole('group', { name: 'Spanish contract' })).toHaveTextContent(
      'no Spanish contract: Spanish readers get the English contract',
    );
    await user.click(within(english).getByRole('button', { name: /^Upload ?\(English\)$/ }));
    expect(await within(english).findByRole('alert')).toHaveTextContent('Choose a PDF file to upload.');
  });

  it('uploads the chosen PDF as the body, with its name', async () => {
    const uploaded: ContractUploadResult = {
      ...contracts,
      removed: [],
      contracts: [
        {
          lang: 'en',
          source: 'upload',
          fallback: false,
          upload: {
            fileName: 'contract.pdf',
            sizeBytes: 245_760,
            pageCount: 3,
            sha256: 'ab',
            uploadedAt: '2026-01-02T10:00:00Z',
            uploadedBy: 'admin@practice.test',
          },
        },
        contracts.contracts[1]!,
      ],
    };
    api.on('PUT /api/admin/settings/contracts/en', json(uploaded));
    const { user } = await openPage();
    const english = await screen.findByRole('group', { name: 'English contract' });
    const file = new File(['%PDF-1.7'], 'contract.pdf', { type: 'application/pdf' });
    await user.upload(within(english).getByLabelText('Upload a new English contract'), file);
    await user.click(within(english).getByRole('button', { name: /^Upload ?\(English\)$/ }));

    expect(await within(english).findByRole('status')).toHaveTextContent(
      'Contract uploaded. New links get it from now on.',
    );
    expect(english).toHaveTextContent('contract.pdf (240 KB, 3 pages), uploaded');
    const [sent] = api.sent('PUT /api/admin/settings/contracts/en');
    expect(sent!.query.get('fileName')).toBe('contract.pdf');
    expect(sent!.headers.get('content-type')).toBe('application/pdf');
  });

  it('says what was taken off a contract before it was saved (issue 26)', async () => {
    api.on('PUT /api/admin/settings/contracts/en', json({ ...contracts, removed: ['scripts', 'attachments'] }));
    const { user } = await openPage();
    const english = await screen.findByRole('group', { name: 'English contract' });
    expect(english).toHaveTextContent('A PDF file of at most 15 MB and 100 pages.');
    const file = new File(['%PDF-1.7'], 'scripted.pdf', { type: 'application/pdf' });
    await user.upload(within(english).getByLabelText('Upload a new English contract'), file);
    await user.click(within(english).getByRole('button', { name: /^Upload ?\(English\)$/ }));
    expect(await within(english).findByRole('status')).toHaveTextContent(
      'Contract uploaded. New links get it from now on. Before saving it, Paylink took off what could run or open ' +
        'on a reader’s device: scripts and attached files. The pages look the same.',
    );
  });

  it('gives the page limit when a contract is refused for its length', async () => {
    api.on(
      'PUT /api/admin/settings/contracts/en',
      refusal(400, 'contract_too_many_pages', 'The PDF has more than 100 pages (CONTRACT_MAX_PAGES).'),
    );
    const { user } = await openPage();
    const english = await screen.findByRole('group', { name: 'English contract' });
    const file = new File(['%PDF-1.7'], 'long.pdf', { type: 'application/pdf' });
    await user.upload(within(english).getByLabelText('Upload a new English contract'), file);
    await user.click(within(english).getByRole('button', { name: /^Upload ?\(English\)$/ }));
    expect(await within(english).findByRole('alert')).toHaveTextContent(
      'This PDF has more than 100 pages. Upload the contract alone, without attachments.',
    );
  });
});

describe('default payment plans', () => {
  const templatesForm = () => screen.getByRole('button', { name: 'Save default plans' }).closest('form')!;

  it('edits the list with the shared rules and saves it as the API takes it', async () => {
    api.on(`PUT ${TEMPLATES}`, ({ body }) =>
      json({ ...(body as object), source: 'practice', updatedAt: '2026-01-03T10:00:00Z' }),
    );
    const { user } = await openPage();
    await screen.findByText('Paylink’s examples: save to keep your own list.');
    const form = within(templatesForm());
    expect(form.getByLabelText('Days before the surgery date')).toHaveValue(21);
    await user.click(form.getByRole('button', { name: 'Add a plan' }));
    const second = within(form.getByRole('group', { name: 'Default plan 2' }));
    await user.type(second.getByLabelText('Name (optional)'), 'Three monthly');
    await user.selectOptions(second.getByLabelText('The balance'), 'installments');
    await user.clear(second.getByLabelText('Number of installments'));
    await user.type(second.getByLabelText('Number of installments'), '1');
    await user.click(form.getByRole('button', { name: 'Save default plans' }));
    expect(second.getByLabelText('Number of installments')).toHaveAccessibleDescription('Choose 2 to 24 installments.');
    expect(api.sent(`PUT ${TEMPLATES}`)).toHaveLength(0);

    await user.clear(second.getByLabelText('Number of installments'));
    await user.type(second.getByLabelText('Number of installments'), '3');
    await user.click(form.getByRole('button', { name: 'Save default plans' }));
    expect(await screen.findByText('Default plans saved.')).toBeInTheDocument();
    expect(api.sent(`PUT ${TEMPLATES}`)[0]!.body).toEqual({
      templates: [
        { name: null, kind: 'single', daysBeforeSurgery: 21 },
        { name: 'Three monthly', kind: 'installments', count: 3, every: 'month', firstDueAfterDays: 30 },
      ],
    });
    expect(screen.getByText('The practice’s list.')).toBeInTheDocument();
  });
});
