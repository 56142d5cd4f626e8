import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { passwordResetRequestBodySchema, passwordResetTokenSchema } from '../../shared/api/contract';
import { FormField } from '../../shared/forms/form-field';
import { PageTitle } from '../../shared/components/page-title';
import { useErrorMessage } from '../../shared/components/query-state';
import { completePasswordReset, requestPasswordReset } from '../../shared/session/session-api';
import { AuthShell } from './auth-shell';
import { NewPasswordFields, newPasswordTwice } from './change-password-form';
import { BusyButton } from '../../shared/components/busy-button';

/** "Forgot password": the same answer whether or not the address is a staff account. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    resolver: zodResolver(passwordResetRequestBodySchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await requestPasswordReset(email);
      setSent(true);
    } catch (e) {
      setFailure(errorMessage(e));
    }
  });
  return (
    <AuthShell>
      <PageTitle>{t('password.forgotTitle')}</PageTitle>
      {sent ? (
        <div className="alert alert-success" role="status">
          {t('password.sent')}
        </div>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <p>{t('password.forgotHelp')}</p>
          <FormField
            name="email"
            label={t('signIn.email')}
            error={errors.email}
            registration={form.register('email')}
            type="email"
            autoComplete="username"
          />
          {failure && (
            <div className="alert alert-danger" role="alert">
              {failure}
            </div>
          )}
          <BusyButton type="submit" className="btn btn-primary w-100 mb-2" busy={isSubmitting}>
            {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('password.sendLink')}
          </BusyButton>
        </form>
      )}
      <Link to="/sign-in">{t('signIn.back')}</Link>
    </AuthShell>
  );
}

/** The token of a reset link: after `#token=` (a fragment never reaches a server's logs or another site). */
function tokenOf(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && passwordResetTokenSchema.safeParse(token).success ? token : null;
}

/** The page a reset link opens: a new password, twice. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const token = tokenOf(useLocation().hash);
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(token ? 'form' : 'invalid');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<z.infer<typeof newPasswordTwice>>({
    resolver: zodResolver(newPasswordTwice),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ newPassword }) => {
    setFailure(null);
    try {
      await completePasswordReset({ token: token!, newPassword });
      setState('done');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'reset_link_invalid') setState('invalid');
      else setFailure(errorMessage(e));
    }
  });
  return (
    <AuthShell>
      <PageTitle>{t('password.resetTitle')}</PageTitle>
      {state === 'done' ? (
        <>
          <div className="alert alert-success" role="status">
            {t('password.resetDone')}
          </div>
          <Link className="btn btn-primary" to="/sign-in">
            {t('password.toSignIn')}
          </Link>
        </>
      ) : state === 'invalid' ? (
        <>
          <div className="alert alert-danger" role="alert">
            {t('password.resetInvalid')}
          </div>
          <Link to="/forgot-password">{t('password.askAgain')}</Link>
        </>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)}>
          <p>{t('password.resetHelp')}</p>
          <NewPasswordFields form={form} />
          {failure && (
            <div className="alert alert-danger" role="alert">
              {failure}
            </div>
          )}
          <BusyButton type="submit" className="btn btn-primary w-100" busy={isSubmitting}>
            {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('password.resetSubmit')}
          </BusyButton>
        </form>
      )}
    </AuthShell>
  );
}
