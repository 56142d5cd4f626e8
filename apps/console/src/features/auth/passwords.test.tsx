import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, refusal, setupApiStub } from '../../test/api-stub';
import { renderScreen } from '../../test/render';
import { ChangePasswordForm } from './change-password-form';
import { ForgotPasswordPage, ResetPasswordPage } from './forgot-password-page';

// Issue 29, item 3: the console's password screens.
const api = setupApiStub();
const FORGOT = 'POST /api/admin/password-reset';
const COMPLETE = 'POST /api/admin/password-reset/complete';
const CHANGE = 'POST /api/admin/me/password';
const TOKEN = 'plr_abcdefghijklmnopqrstuvwxyz0123456789';
const noContent = () => new Response(null, { status: 204 });

describe('forgot password', () => {
  it('sends the address and says the same thing whatever the answer', async () => {
    api.on(FORGOT, json({ status: 'accepted' }));
    const { user } = await renderScreen(<ForgotPasswordPage />);
    await user.type(screen.getByLabelText('E-mail'), 'dana@practice.test');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If that address belongs to a staff account, we sent a link. Check your e-mail.',
    );
    expect(api.sent(FORGOT)[0]!.body).toEqual({ email: 'dana@practice.test' });
  });

  it('speaks Spanish', async () => {
    api.on(FORGOT, json({ status: 'accepted' }));
    const { user } = await renderScreen(<ForgotPasswordPage />, { lng: 'es' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Olvidó su contraseña');
    await user.type(screen.getByLabelText('Correo electrónico'), 'dana@practice.test');
    await user.click(screen.getByRole('button', { name: 'Enviar el enlace' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Si esa dirección pertenece a una cuenta del personal');
  });
});

describe('the reset link’s page', () => {
  it('takes the token from the link’s #fragment and sets the password typed twice', async () => {
    api.on(COMPLETE, noContent);
    const { user } = await renderScreen(<ResetPasswordPage />, { at: `/reset-password#token=${TOKEN}` });
    await user.type(screen.getByLabelText('New password'), 'a long new passphrase');
    await user.type(screen.getByLabelText('New password again'), 'a long new passphrase!');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription(
      'Type the same new password again.',
    );
    expect(api.sent(COMPLETE)).toHaveLength(0);
    await user.clear(screen.getByLabelText('New password again'));
    await user.type(screen.getByLabelText('New password again'), 'a long new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password was set. Sign in with it.');
    expect(api.sent(COMPLETE)[0]!.body).toEqual({ token: TOKEN, newPassword: 'a long new passphrase' });
  });

  it('a used or expired link says so and offers a new one', async () => {
    api.on(COMPLETE, refusal(400, 'reset_link_invalid', 'This link was already used.'));
    const { user } = await renderScreen(<ResetPasswordPage />, { at: `/reset-password#token=${TOKEN}` });
    await user.type(screen.getByLabelText('New password'), 'a long new passphrase');
    await user.type(screen.getByLabelText('New password again'), 'a long new passphrase');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already used, has expired or is not valid');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('a link without a token is not valid', async () => {
    await renderScreen(<ResetPasswordPage />, { at: '/reset-password' });
    expect(screen.getByRole('alert')).toHaveTextContent('already used, has expired or is not valid');
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});

describe('change my password', () => {
  it('asks for the code when two-factor is on, and says when the current password is wrong', async () => {
    api.on(CHANGE, refusal(400, 'invalid_credentials', 'The current password is wrong.'));
    let done = 0;
    const { user } = await renderScreen(<ChangePasswordForm twoFactor onDone={() => done++} />);
    await user.type(screen.getByLabelText('Current password'), 'not my password');
    await user.type(screen.getByLabelText('New password'), 'a long new passphrase');
    await user.type(screen.getByLabelText('New password again'), 'a long new passphrase');
    await user.type(screen.getByLabelText('Code from the authenticator app (or a recovery code)'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is wrong.');
    expect(api.sent(CHANGE)[0]!.body).toEqual({
      currentPassword: 'not my password',
      newPassword: 'a long new passphrase',
      code: '123456',
    });
    expect(done).toBe(0);
    api.on(CHANGE, noContent);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(done).toBe(1));
  });

  it('refuses a short new password before sending', async () => {
    const { user } = await renderScreen(<ChangePasswordForm twoFactor={false} onDone={() => undefined} />);
    expect(screen.queryByLabelText(/Code from the authenticator app/)).toBeNull();
    await user.type(screen.getByLabelText('Current password'), 'my password');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('New password again'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 12 characters. Use at least 12 characters.',
    );
    expect(api.sent(CHANGE)).toHaveLength(0);
  });
});
