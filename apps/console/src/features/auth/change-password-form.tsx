import { useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { currentPasswordSchema, newPasswordSchema } from '../../shared/api/contract';
import { FormField } from '../../shared/forms/form-field';
import { useErrorMessage } from '../../shared/components/query-state';
import { changePassword } from '../../shared/session/session-api';
import { BusyButton } from '../../shared/components/busy-button';

const sameTwice = (v: { newPassword: string; confirmPassword: string }) => v.newPassword === v.confirmPassword;
const mismatch = { path: ['confirmPassword'], message: 'mismatch' };
/** The new password twice (the rule is the shared one a new staff user's password follows). */
export const newPasswordTwice = z
  .object({ newPassword: newPasswordSchema, confirmPassword: z.string() })
  .refine(sameTwice, mismatch);

/** The new password and its confirmation, as both the change and the reset forms ask for them. */
export function NewPasswordFields(props: {
  form: {
    register: UseFormRegister<{ newPassword: string; confirmPassword: string }>;
    formState: { errors: FieldErrors<{ newPassword: string; confirmPassword: string }> };
  };
}) {
  const { t } = useTranslation();
  const { register, formState } = props.form;
  return (
    <>
      <FormField
        name="newPassword"
        label={t('password.new')}
        hint={t('password.newHint')}
        error={formState.errors.newPassword}
        registration={register('newPassword')}
        type="password"
        autoComplete="new-password"
      />
      <FormField
        name="confirmPassword"
        label={t('password.confirm')}
        error={formState.errors.confirmPassword}
        registration={register('confirmPassword')}
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}

const schema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
    code: z.string().trim().max(40).optional(),
  })
  .refine(sameTwice, mismatch);
type Values = z.infer<typeof schema>;

/**
 * Change my password: the current one (or the temporary one an admin gave), the new one twice and, with two-factor on,
 * a code. The server ends the user's other sessions and CLI tokens.
 */
export function ChangePasswordForm(props: {
  twoFactor: boolean;
  currentLabel?: string;
  submitLabel?: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (v) => {
    setFailure(null);
    try {
      const code = v.code?.replace(/\s/g, '');
      await changePassword({
        currentPassword: v.currentPassword,
        newPassword: v.newPassword,
        ...(props.twoFactor && code ? { code } : {}),
      });
      form.reset();
      props.onDone();
    } catch (e) {
      setFailure(
        e instanceof ApiError && e.code === 'invalid_credentials' ? t('password.wrongCurrent') : errorMessage(e),
      );
    }
  });
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <FormField
        name="currentPassword"
        label={props.currentLabel ?? t('password.current')}
        error={errors.currentPassword}
        registration={form.register('currentPassword')}
        type="password"
        autoComplete="current-password"
      />
      <NewPasswordFields form={form} />
      {props.twoFactor && (
        <FormField
          name="code"
          label={t('password.code')}
          error={errors.code}
          registration={form.register('code')}
          type="text"
          autoComplete="one-time-code"
        />
      )}
      {failure && (
        <div className="alert alert-danger" role="alert">
          {failure}
        </div>
      )}
      <BusyButton type="submit" className="btn btn-primary" busy={isSubmitting}>
        {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        {props.submitLabel ?? t('password.change')}
      </BusyButton>
    </form>
  );
}
