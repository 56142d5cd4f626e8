import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { FIRST_SCREEN_FIELD_ATTR, digitsOnly, patientEndpoints } from '@paylink/shared';
import { firstScreenPending, firstScreenValue } from '../../first-screen';
import { PageLayout } from '../../components/page-layout';
import { ButtonSpinner } from '../../components/spinner';
import { useAppDispatch } from '../../store/hooks';
import { signedIn } from '../../store/auth-slice';
import { call } from '../../lib/api-client';
import { useAppConfig } from '../../lib/app-config';
import { useApiFailure } from '../../lib/use-api-failure';
import { authErrorCode, isLinkStateFailure } from './auth-errors';
import { AuthErrorAlert } from './auth-error-alert';
import { messageLanguage } from './message-language';
import { getCaptchaToken } from './turnstile';
import { SessionExpiredNotice } from './session-expired-notice';

const CODE_LENGTH = 6;

/** Phone variant: read-only masked phone, 'Get Verification code' (invisible captcha), 6-digit code, 'Sign In'. */
export function SmsSignIn(props: {
  linkId: string;
  phone: string;
  captchaSiteKey: string | null;
  onSignedIn: () => void;
}) {
  const { t, i18n } = useTranslation();
  const config = useAppConfig();
  const dispatch = useAppDispatch();
  const fail = useApiFailure();
  const ids = { phone: useId(), code: useId(), codeHint: useId(), error: useId() };
  const captchaBox = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [resendAt, setResendAt] = useState(0);
  const [validMinutes, setValidMinutes] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  // Typed into the server's first screen before the app took over (decision 0226).
  const [code, setCode] = useState(() => digitsOnly(firstScreenValue('code')).slice(0, CODE_LENGTH));
  const [verifying, setVerifying] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!sent || now >= resendAt) return;
    const id = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(id);
  }, [sent, now, resendAt]);

  const handleError = (e: unknown) => {
    if (isLinkStateFailure(e)) {
      fail(e, { lookup: true });
      return;
    }
    setError(authErrorCode(e));
  };

  const sendCode = async () => {
    setSending(true);
    setError(null);
    try {
      let captchaToken: string | undefined;
      if (props.captchaSiteKey && captchaBox.current) {
        try {
          captchaToken = await getCaptchaToken(
            { siteKey: props.captchaSiteKey, scriptUrl: config.captchaScriptUrl },
            captchaBox.current,
            i18n.language,
          );
        } catch {
          setError('auth/captcha-check-failed');
          return;
        }
      }
      const r = await call(patientEndpoints.smsSend, {
        body: { linkId: props.linkId, lng: messageLanguage(i18n.language), ...(captchaToken ? { captchaToken } : {}) },
        auth: false,
      });
      setSent(true);
      setNow(Date.now());
      setResendAt(Date.now() + r.resendAfterSeconds * 1000);
      // Said once to screen readers; the countdown on screen stays silent (issue 29, item 8).
      setAnnouncement(
        r.resendAfterSeconds > 0 ? t('auth.codeSentAnnounce', { count: r.resendAfterSeconds }) : t('auth.codeSent'),
      );
      setValidMinutes(Math.max(1, Math.round(r.expiresInSeconds / 60)));
      codeInput.current?.focus();
    } catch (e) {
      handleError(e);
    } finally {
      setSending(false);
    }
  };

  const verify = async (event: React.FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH || verifying) return;
    setVerifying(true);
    setError(null);
    try {
      const r = await call(patientEndpoints.smsVerify, {
        body: { linkId: props.linkId, code },
        auth: false,
      });
      dispatch(signedIn({ token: r.token, expiresAt: r.expiresAt }));
      props.onSignedIn();
    } catch (e) {
      setVerifying(false);
      handleError(e);
    }
  };

  // 'Get Verification code' pressed on the server's first screen before the app ran: done now, once.
  const [pendingSend] = useState(() => firstScreenPending() === 'getCode');
  const pendingDone = useRef(false);
  useEffect(() => {
    if (!pendingSend || pendingDone.current) return;
    pendingDone.current = true;
    void sendCode();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render's wish
  }, [pendingSend]);

  const waitSeconds = Math.max(0, Math.ceil((resendAt - now) / 1000));
  const canResend = sent && waitSeconds === 0;
  const codeRejected = error === 'auth/invalid-verification-code' || error === 'auth/code-expired';

  return (
    <PageLayout title={t('auth.phoneTitle')}>
      <SessionExpiredNotice />
      <div className="card-panel">
        <p>{t('auth.phoneInstruction')}</p>
        <div className="mb-3">
          <label htmlFor={ids.phone} className="form-label">
            {t('auth.phoneLabel')}
          </label>
          <input id={ids.phone} className="form-control" type="text" value={props.phone} readOnly />
        </div>
        <button
          type="button"
          className="btn btn-primary w-100"
          onClick={() => void sendCode()}
          disabled={sending || sent}
          aria-busy={(sending && !sent) || undefined}
        >
          {sending && !sent ? <ButtonSpinner /> : null}
          {sent ? t('auth.codeSent') : t('auth.getCode')}
        </button>
        {/* Mounted before its message arrives, so the message is read; one message per send, not one a second. */}
        <p className="visually-hidden" role="status" aria-live="polite">
          {sent && canResend ? t('auth.resendReady') : announcement}
        </p>
        {sent && (
          <div className="mt-2">
            {canResend ? (
              <button
                type="button"
                className="btn btn-link px-0"
                onClick={() => void sendCode()}
                disabled={sending}
                aria-busy={sending || undefined}
              >
                {t('auth.resend')}
              </button>
            ) : (
              <p className="form-text mb-0">{t('auth.resendIn', { count: waitSeconds })}</p>
            )}
          </div>
        )}
        <div ref={captchaBox} className="captcha-box" />
      </div>

      <form className="card-panel" onSubmit={(e) => void verify(e)} noValidate>
        <h2 className="h5">{t('auth.codeTitle')}</h2>
        <div className="mb-3">
          <label htmlFor={ids.code} className="form-label">
            {t('auth.codeLabel')}
          </label>
          <input
            ref={codeInput}
            id={ids.code}
            className="form-control form-control-lg otp-input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            {...{ [FIRST_SCREEN_FIELD_ATTR]: 'code' }}
            value={code}
            // The error about the code is tied to the field, so a screen reader reads it with the field.
            aria-describedby={error ? `${ids.error} ${ids.codeHint}` : ids.codeHint}
            aria-invalid={codeRejected || undefined}
            // No maxLength: a pasted "12 34 56" loses its spaces before the 6-digit limit (issue 16).
            onChange={(e) => setCode(digitsOnly(e.target.value).slice(0, CODE_LENGTH))}
          />
          <div id={ids.codeHint} className="form-text">
            {validMinutes !== null ? t('auth.codeHint', { count: validMinutes }) : '\u00a0'}
          </div>
        </div>
        <button
          type="submit"
          className="btn btn-primary w-100"
          disabled={code.length !== CODE_LENGTH || verifying}
          aria-busy={verifying || undefined}
        >
          {verifying ? <ButtonSpinner /> : null}
          {t('auth.signIn')}
        </button>
        <p className="form-text mt-3 mb-0">{t('auth.doNotRefresh')}</p>
      </form>

      {/* role="alert" announces itself; no live region around it (nested ones may announce twice). */}
      <div>{error && <AuthErrorAlert id={ids.error} code={error} />}</div>
    </PageLayout>
  );
}
