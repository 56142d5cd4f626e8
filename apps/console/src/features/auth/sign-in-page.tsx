import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { FormField } from '../../shared/forms/form-field';
import { PageTitle } from '../../shared/components/page-title';
import { Loading, useErrorMessage } from '../../shared/components/query-state';
import { signInBodySchema } from '../../shared/api/contract';
import { SESSION_QUERY_KEY, signIn, type SessionInfo } from '../../shared/session/session-api';
import { useSession } from '../../shared/session/use-session';
import { useFocusWhen } from '../../shared/lib/focus';
import { AuthShell } from './auth-shell';
import { BusyButton } from '../../shared/components/busy-button';

type Credentials = { email: string; password: string };
const credentialsSchema = signInBodySchema.omit({ code: true });
const codeSchema = z.object({ code: z.string().trim().min(6).max(40) });

/** Only paths inside the console; anything else goes home. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/';
}

export function SignInPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const step = credentials ? 'code' : 'password';
  const next = safeNext(params.get('next'));
  const reason = params.get('reason');

  const done = (s: SessionInfo) => {
    queryClient.setQueryData(SESSION_QUERY_KEY, s);
    // An admin's reset first asks for a new password, then a required two-factor set-up.
    const first = s.passwordChangeRequired ? '/change-password' : s.twoFactor.enrolmentRequired ? '/security' : next;
    void navigate(first, { replace: true });
  };

  if (session.isPending) return <Loading />;
  if (session.data && step === 'password') return <Navigate to={next} replace />;

  return (
    <AuthShell>
      {step === 'password' ? (
        <>
          <PageTitle>{t('signIn.title')}</PageTitle>
          {reason === 'idle' && (
            <div className="alert alert-info" role="status">
              {t('signIn.idleSignedOut')}
            </div>
          )}
          {reason === 'expired' && (
            <div className="alert alert-info" role="status">
              {t('signIn.sessionEnded')}
            </div>
          )}
          <PasswordStep onDone={done} onCodeRequired={setCredentials} />
          <p className="mt-3 mb-0">
            <Link to="/forgot-password">{t('password.forgot')}</Link>
          </p>
        </>
      ) : (
        <>
          <PageTitle>{t('signIn.codeTitle')}</PageTitle>
          <CodeStep credentials={credentials!} onDone={done} onBack={() => setCredentials(null)} />
        </>
      )}
    </AuthShell>
  );
}

/** 429 answers say how long to wait. */
function useSignInFailure() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  return (e: unknown) => {
    if (e instanceof ApiError && e.code === 'invalid_credentials') return t('signIn.wrongPassword');
    if (e instanceof ApiError && e.code === 'invalid_code') return t('signIn.wrongCode');
    if (e instanceof ApiError && e.status === 429) {
      const seconds = Number((e.body as { retryAfterSeconds?: unknown })?.retryAfterSeconds);
      return Number.isFinite(seconds)
        ? t('signIn.throttled', { seconds: Math.max(1, Math.ceil(seconds)) })
        : t('errors.tooMany');
    }
    if (e instanceof ApiError && e.status === 401) return t('signIn.wrongPassword');
    return errorMessage(e);
  };
}

function PasswordStep(props: { onDone: (s: SessionInfo) => void; onCodeRequired: (c: Credentials) => void }) {
  const { t } = useTranslation();
  const failureText = useSignInFailure();
  const [failure, setFailure] = useState<string | null>(null);
  // A refusal takes focus from Sign in (which kept it while asking): the keyboard user is at the message.
  const failureRef = useFocusWhen<HTMLDivElement>(failure);
  const form = useForm<Credentials>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await signIn(values);
      if (answer.status === 'code_required') props.onCodeRequired(values);
      else props.onDone(answer.session);
    } catch (e) {
      setFailure(failureText(e));
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-describedby={failure ? 'sign-in-failure' : undefined}>
      <FormField
        name="email"
        label={t('signIn.email')}
        error={errors.email}
        registration={form.register('email')}
        type="email"
        autoComplete="username"
      />
      <FormField
        name="password"
        label={t('signIn.password')}
        error={errors.password}
        registration={form.register('password')}
        type="password"
        autoComplete="current-password"
      />
      {failure && (
        <div id="sign-in-failure" ref={failureRef} tabIndex={-1} className="alert alert-danger" role="alert">
          {failure}
        </div>
      )}
      <BusyButton type="submit" className="btn btn-primary w-100" busy={isSubmitting}>
        {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        {t('signIn.submit')}
      </BusyButton>
    </form>
  );
}

function CodeStep(props: { credentials: Credentials; onDone: (s: SessionInfo) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const failureText = useSignInFailure();
  const [failure, setFailure] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);
  const failureRef = useFocusWhen<HTMLDivElement>(failure);
  const form = useForm<{ code: string }>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const answer = await signIn({ ...props.credentials, code: code.replace(/\s/g, '') });
      if (answer.status === 'signed_in') props.onDone(answer.session);
      else setFailure(t('signIn.wrongCode'));
    } catch (e) {
      setFailure(failureText(e));
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <p>{recovery ? t('signIn.recoveryHelp') : t('signIn.codeHelp')}</p>
      <FormField
        name="code"
        label={recovery ? t('signIn.recoveryCode') : t('signIn.code')}
        error={errors.code}
        registration={form.register('code')}
        type="text"
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
      />
      {failure && (
        <div ref={failureRef} tabIndex={-1} className="alert alert-danger" role="alert">
          {failure}
        </div>
      )}
      <BusyButton type="submit" className="btn btn-primary w-100 mb-2" busy={isSubmitting}>
        {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        {t('signIn.verify')}
      </BusyButton>
      <div className="d-flex flex-wrap justify-content-between gap-2">
        <button type="button" className="btn btn-link px-0" onClick={() => setRecovery((r) => !r)}>
          {recovery ? t('signIn.useApp') : t('signIn.useRecovery')}
        </button>
        <button type="button" className="btn btn-link px-0" onClick={props.onBack}>
          {t('signIn.back')}
        </button>
      </div>
    </form>
  );
}
