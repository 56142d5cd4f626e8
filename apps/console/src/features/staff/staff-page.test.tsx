import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffListItem } from '../../shared/api/contract';
import { held, json, refusal, staffSession, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { StaffPage } from './staff-page';

const api = setupApiStub();
const LIST = 'GET /api/admin/staff';
const CREATE = 'POST /api/admin/staff';
const ME = staffSession('admin').user.id;
const DANA = '00000000-0000-4000-8000-00000000000d';
const BEN = '00000000-0000-4000-8000-00000000000b';

const staff: StaffListItem[] = [
  {
    id: ME,
    email: 'admin@practice.test',
    name: 'Test admin',
    role: 'admin',
    createdAt: '2026-01-01T00:00:00Z',
    disabledAt: null,
    lastSignInAt: '2026-01-02T10:00:00Z',
    twoFactorEnabled: true,
  },
  {
    id: DANA,
    email: 'dana@practice.test',
    name: 'Dana Reyes',
    role: 'coordinator',
    createdAt: '2026-01-01T00:00:00Z',
    disabledAt: null,
    lastSignInAt: null,
    twoFactorEnabled: true,
  },
  {
    id: BEN,
    email: 'ben@practice.test',
    name: '',
    role: 'billing',
    createdAt: '2026-01-01T00:00:00Z',
    disabledAt: '2026-01-03T00:00:00Z',
    lastSignInAt: null,
    twoFactorEnabled: false,
  },
];

async function openPage(lng: 'en' | 'es' = 'en') {
  api.on(LIST, json({ staff }));
  const view = await renderScreen(<StaffPage />, { lng });
  await screen.findByRole('table');
  return view;
}
const row = (email: string) => document.querySelector<HTMLElement>(`tr[data-staff-email="${email}"]`)!;

describe('staff screen', () => {
  it('lists the staff: role, last sign-in, two-step and status; no actions on oneself', async () => {
    await openPage();
    const me = row('admin@practice.test');
    // Who "you" are comes with the session.
    await waitFor(() => expect(me).toHaveTextContent('Test admin (you)'));
    expect(within(me).getByRole('combobox', { name: 'Change role for Test admin' })).toBeDisabled();
    expect(within(me).queryByRole('button')).toBeNull();

    const dana = row('dana@practice.test');
    expect(within(dana).getByRole('combobox', { name: 'Change role for Dana Reyes' })).toHaveValue('coordinator');
    expect(dana).toHaveTextContent('Never');
    expect(dana).toHaveTextContent('Active');
    expect(within(dana).getByRole('button', { name: /^Deactivate ?Dana Reyes$/ })).toBeInTheDocument();
    expect(within(dana).getByRole('button', { name: /^Reset two-step ?Dana Reyes$/ })).toBeInTheDocument();

    // No name: the e-mail stands for it. Deactivated, no two-step: reactivate only.
    const ben = row('ben@practice.test');
    expect(ben).toHaveTextContent('Deactivated');
    expect(within(ben).getByRole('button', { name: /^Reactivate ?ben@practice\.test$/ })).toBeInTheDocument();
    expect(within(ben).queryByRole('button', { name: /Reset two-step/ })).toBeNull();
  });

  it('changes a role at once and reads the list again', async () => {
    api.on(`PATCH /api/admin/staff/${DANA}`, json({ ...staff[1], role: 'billing' }));
    const { user } = await openPage();
    api.on(LIST, json({ staff: [staff[0], { ...staff[1]!, role: 'billing' }, staff[2]] }));
    const select = within(row('dana@practice.test')).getByRole('combobox', { name: 'Change role for Dana Reyes' });
    await user.selectOptions(select, 'billing');
    await waitFor(() => expect(api.sent(LIST)).toHaveLength(2));
    expect(api.sent(`PATCH /api/admin/staff/${DANA}`)[0]!.body).toEqual({ role: 'billing' });
    await waitFor(() => expect(select).toHaveValue('billing'));
  });

  it('a refused role change is shown above the table', async () => {
    api.on(`PATCH /api/admin/staff/${DANA}`, refusal(409, 'last_admin', 'The last admin cannot be changed.'));
    const { user } = await openPage();
    await user.selectOptions(
      within(row('dana@practice.test')).getByRole('combobox', { name: 'Change role for Dana Reyes' }),
      'admin',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Keep at least one active admin.');
    expect(api.sent(`PATCH /api/admin/staff/${DANA}`)).toHaveLength(1);
    // The list was not read again: the row still shows the role the server kept.
    expect(api.sent(LIST)).toHaveLength(1);
  });

  it('deactivates after a confirmation; reactivates in one click', async () => {
    const dana = `PATCH /api/admin/staff/${DANA}`;
    const ben = `PATCH /api/admin/staff/${BEN}`;
    api.on(dana, json(staff[1]));
    api.on(ben, json(staff[2]));
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: /^Deactivate ?Dana Reyes$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Dana Reyes?' });
    expect(dialog).toHaveTextContent('They are signed out at once and cannot sign in again until reactivated.');
    expect(api.sent(dana)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.sent(dana)).toHaveLength(1));
    expect(api.sent(dana)[0]!.body).toEqual({ disabled: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: /^Reactivate ?ben@practice\.test$/ }));
    await waitFor(() => expect(api.sent(ben)).toHaveLength(1));
    expect(api.sent(ben)[0]!.body).toEqual({ disabled: false });
  });

  it('resets two-step after a confirmation; a refusal stays in the dialog', async () => {
    const reset = `POST /api/admin/staff/${DANA}/reset-2fa`;
    api.on(reset, refusal(403, 'forbidden', 'Admins only.'));
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: /^Reset two-step ?Dana Reyes$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-step verification for Dana Reyes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-step' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Your role cannot do this. Ask an admin if you need it.',
    );
    expect(api.sent(reset)[0]!.headers.get('x-paylink-console')).toBe('1');
  });

  it('resets a password after a confirmation and shows the temporary password until dismissed', async () => {
    const reset = `POST /api/admin/staff/${DANA}/reset-password`;
    api.on(reset, json({ temporaryPassword: 'abcde-fghij-kmnpq-rstuv', staff: staff[1] }));
    const { user } = await openPage();
    expect(within(row('ben@practice.test')).queryByRole('button', { name: /Reset password/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /^Reset password ?Dana Reyes$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the password of Dana Reyes?' });
    expect(dialog).toHaveTextContent('they must choose a new password at their next sign-in');
    expect(api.sent(reset)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('status', { name: 'Temporary password for Dana Reyes' });
    expect(shown).toHaveTextContent('abcde-fghij-kmnpq-rstuv');
    expect(shown).toHaveTextContent('It is shown only now.');
    expect(api.sent(reset)[0]!.headers.get('x-paylink-console')).toBe('1');
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('abcde-fghij-kmnpq-rstuv')).toBeNull();
  });
});

describe('adding a staff member', () => {
  it('checks the e-mail and the first password before sending', async () => {
    const { user } = await openPage();
    await user.type(screen.getByLabelText('E-mail'), 'dana@');
    await user.type(screen.getByLabelText('First password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Add a staff member' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Enter an e-mail address like name@example.com.',
    );
    expect(screen.getByLabelText('First password')).toHaveAccessibleDescription(
      'At least 12 characters. They can change it under Security after signing in. Use at least 12 characters.',
    );
    expect(api.sent(CREATE)).toHaveLength(0);
  });

  it('sends name, e-mail, role and password; says who was added and empties the form', async () => {
    const answer = held();
    api.on(CREATE, answer.answer);
    const { user } = await openPage();
    await user.type(screen.getByLabelText('Name'), 'Eva Cruz');
    await user.type(screen.getByLabelText('E-mail'), 'eva@practice.test');
    await user.selectOptions(screen.getByLabelText('Role'), 'billing');
    await user.type(screen.getByLabelText('First password'), 'correct horse battery');
    const add = screen.getByRole('button', { name: 'Add a staff member' });
    await user.click(add);
    await waitFor(() => expect(add).toHaveAttribute('aria-disabled', 'true'));
    answer.release(
      json(
        { id: 'u9', email: 'eva@practice.test', name: 'Eva Cruz', role: 'billing', createdAt: '2026-01-04T00:00:00Z' },
        201,
      ),
    );

    expect(await screen.findByText('Eva Cruz was added.')).toBeInTheDocument();
    expect(api.sent(CREATE)[0]!.body).toEqual({
      name: 'Eva Cruz',
      email: 'eva@practice.test',
      role: 'billing',
      password: 'correct horse battery',
    });
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('First password')).toHaveValue('');
    expect(screen.getByLabelText('Role')).toHaveValue('coordinator');
    await waitFor(() => expect(api.sent(LIST)).toHaveLength(2));
  });

  it('a refusal is shown in the console language', async () => {
    api.on(CREATE, refusal(409, 'staff_exists', 'A staff user with this e-mail already exists.'));
    const { user } = await openPage('es');
    expect(screen.getByRole('heading', { name: 'Personal' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Correo electrónico'), 'dana@practice.test');
    await user.type(screen.getByLabelText('Contraseña inicial'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Agregar a una persona' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ya existe un usuario del personal con este correo.');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
