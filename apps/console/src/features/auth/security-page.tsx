import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../shared/api/client';
import { FormField } from '../../shared/forms/form-field';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, useErrorMessage } from '../../shared/components/query-state';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { copyText } from '../../shared/lib/copy-text';
import {
  enableTwoFactor,
  SESSION_QUERY_KEY,
  signOutEverywhere,
  startTwoFactorEnrolment,
  type SessionInfo,
  type TwoFactorSetup,
} from '../../shared/session/session-api';
import { useSession } from '../../shared/session/use-session';
import { ChangePasswordForm } from './change-password-form';
import { NotificationPrefs } from './notification-prefs';
import { BusyButton } from '../../shared/components/busy-button';

const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

/** Two-factor enrolment (QR drawn in the browser: the secret never leaves this page) and "sign out everywhere". */
export function SecurityPage() {
  const { t } = useTranslation();
  const { data: session } = useSession();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useMutation({ mutationFn: startTwoFactorEnrolment, onSuccess: setSetup });
  const enabled = !!session?.user.twoFactorEnabled;

  return (
    <>
      <PageTitle>{t('security.title')}</PageTitle>
      {session?.twoFactor.enrolmentRequired && !recoveryCodes && (
        <div className="alert alert-warning" role="status">
          {t('security.required')}
        </div>
      )}
      <section className="card mb-4" aria-labelledby="two-factor-heading">
        <div className="card-body">
          <h2 id="two-factor-heading" className="h5">
            {t('security.twoFactor')}
          </h2>
          {recoveryCodes ? (
            <RecoveryCodes codes={recoveryCodes} />
          ) : enabled ? (
            <p className="mb-0">
              <span className="badge text-bg-success me-2">{t('security.on')}</span>
              {t('security.onHelp')}
            </p>
          ) : setup ? (
            <Enrol setup={setup} onDone={setRecoveryCodes} />
          ) : (
            <>
              <p>{t('security.offHelp')}</p>
              {start.error && <ErrorAlert error={start.error} />}
              <BusyButton
                type="button"
                className="btn btn-primary"
                onClick={() => start.mutate()}
                busy={start.isPending}
              >
                {t('security.setUp')}
              </BusyButton>
            </>
          )}
        </div>
      </section>
      {!session?.twoFactor.enrolmentRequired && <ChangeMyPassword twoFactor={enabled} />}
      <NotificationPrefs />
      <SignOutEverywhere />
    </>
  );
}

function Enrol(props: { setup: TwoFactorSetup; onDone: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [qr, setQr] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ code: string }>({ resolver: zodResolver(codeSchema), defaultValues: { code: '' } });

  useEffect(() => {
    let live = true;
    // qrcode is only needed here: its own chunk.
    void import('qrcode').then((QR) =>
      QR.toDataURL(props.setup.otpauthUri, { margin: 1, width: 220 }).then((url) => live && setQr(url)),
    );
    return () => {
      live = false;
    };
  }, [props.setup.otpauthUri]);

  const submit = form.handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      const { recoveryCodes } = await enableTwoFactor({ code });
      queryClient.setQueryData<SessionInfo | null>(SESSION_QUERY_KEY, (s) =>
        s
          ? {
              ...s,
              twoFactor: { ...s.twoFactor, enabled: true, enrolmentRequired: false },
              user: { ...s.user, twoFactorEnabled: true },
            }
          : s,
      );
      props.onDone(recoveryCodes);
    } catch (e) {
      setFailure(
        e instanceof ApiError && (e.status === 400 || e.status === 401) ? t('signIn.wrongCode') : errorMessage(e),
      );
    }
  });

  return (
    <div className="row g-4">
      <div className="col-md-5">
        <ol className="ps-3">
          <li>{t('security.step1')}</li>
          <li>{t('security.step2')}</li>
          <li>{t('security.step3')}</li>
        </ol>
        {qr ? (
          <img src={qr} width={220} height={220} alt={t('security.qrAlt')} className="border rounded" />
        ) : (
          <div className="placeholder-glow" aria-hidden="true">
            <span className="placeholder" style={{ width: 220, height: 220, display: 'block' }} />
          </div>
        )}
        <p className="mt-2 mb-0 small">
          {t('security.manual')} <code className="secret text-break">{props.setup.secret}</code>
        </p>
      </div>
      <div className="col-md-7">
        <form noValidate onSubmit={(e) => void submit(e)}>
          <FormField
            name="totp"
            label={t('security.codeLabel')}
            error={form.formState.errors.code}
            registration={form.register('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          {failure && (
            <div className="alert alert-danger" role="alert">
              {failure}
            </div>
          )}
          <BusyButton type="submit" className="btn btn-primary" busy={form.formState.isSubmitting}>
            {t('security.turnOn')}
          </BusyButton>
        </form>
      </div>
    </div>
  );
}

function RecoveryCodes(props: { codes: string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [copied, setCopied] = useState(false);
  const text = props.codes.join('\n');
  return (
    <div>
      <div className="alert alert-success" role="status">
        {t('security.enabled')}
      </div>
      <p>{t('security.recoveryHelp')}</p>
      <ul
        className="recovery-codes list-unstyled font-monospace row row-cols-2 g-1 mb-3"
        aria-label={t('security.recoveryCodes')}
      >
        {props.codes.map((c) => (
          <li key={c} className="col">
            {c}
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline-primary" onClick={() => void copyText(text).then(setCopied)}>
          {copied ? t('common.copied') : t('security.copyCodes')}
        </button>
        <a
          className="btn btn-outline-primary"
          download="paylink-recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`}
        >
          {t('security.downloadCodes')}
        </a>
        <button type="button" className="btn btn-primary" onClick={() => void navigate('/')}>
          {t('security.savedThem')}
        </button>
      </div>
    </div>
  );
}

function ChangeMyPassword(props: { twoFactor: boolean }) {
  const { t } = useTranslation();
  const [changed, setChanged] = useState(false);
  return (
    <section className="card mb-4" aria-labelledby="password-heading">
      <div className="card-body">
        <h2 id="password-heading" className="h5">
          {t('password.change')}
        </h2>
        <p>{t('password.help')}</p>
        <div aria-live="polite">
          {changed && (
            <div className="alert alert-success" role="status">
              {t('password.changed')}
            </div>
          )}
        </div>
        <ChangePasswordForm twoFactor={props.twoFactor} onDone={() => setChanged(true)} />
      </div>
    </section>
  );
}

function SignOutEverywhere() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [open, setOpen] = useState(false);
  const run = useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => {
      queryClient.clear();
      void navigate('/sign-in', { replace: true });
    },
  });
  return (
    <section className="card" aria-labelledby="everywhere-heading">
      <div className="card-body">
        <h2 id="everywhere-heading" className="h5">
          {t('security.everywhere')}
        </h2>
        <p>{t('security.everywhereHelp')}</p>
        <button type="button" className="btn btn-outline-danger" onClick={() => setOpen(true)}>
          {t('layout.signOutEverywhere')}
        </button>
        <ConfirmDialog
          show={open}
          title={t('security.everywhere')}
          body={t('security.everywhereConfirm')}
          confirmLabel={t('layout.signOutEverywhere')}
          danger
          busy={run.isPending}
          error={run.error ? errorMessage(run.error) : null}
          onConfirm={() => run.mutate()}
          onCancel={() => setOpen(false)}
        />
      </div>
    </section>
  );
}
