import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { FIRST_SCREEN_FIELD_ATTR, patientEndpoints } from '@paylink/shared';
import { firstScreenPending, firstScreenValue } from '../../first-screen';
import { PageLayout } from '../../components/page-layout';
import { ButtonSpinner } from '../../components/spinner';
import { useAppConfig } from '../../lib/app-config';
import { call } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { authErrorCode, isLinkStateFailure } from './auth-errors';
import { AuthErrorAlert } from './auth-error-alert';
import { messageLanguage } from './message-language';
import { getCaptchaToken } from './turnstile';
import { SessionExpiredNotice } from './session-expired-notice';

/** The same loose shape check the server makes; the server has the last word (auth/invalid-email). */
const looksLikeEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** The address as the server compares it: no surrounding spaces, any case. */
const normalizeEmail = (v: string) => v.trim().toLowerCase();

/** Used when an older server does not say how long the cooldown is. */
const DEFAULT_RESEND_SECONDS = 30;

/** E-mail variant: title, instruction, e-mail field, a button that becomes 'Email link sent…', the no-reply note. */
export function EmailSignIn(props: { linkId: string; captchaSiteKey: string | null }) {
  const { t, i18n } = useTranslation();
  const config = useAppConfig();
  const fail = useApiFailure();
  const ids = { email: useId(), emailError: useId() };
  const captchaBox = useRef<HTMLDivElement>(null);
  // Typed into the server's first screen before the app took over (decision 0226).
  const [email, setEmail] = useState(() => firstScreenValue('email'));
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const valid = looksLikeEmail(email);
  const alreadySent = sentTo !== null && sentTo === normalizeEmail(email);
  // After a send, a corrected address waits out the same cooldown the server applies, counting down as the SMS
  // screen does, instead of a button that looks ready and then answers "wait a few minutes".
  const waitSeconds = sentTo === null ? 0 : Math.max(0, Math.ceil((resendAt - now) / 1000));

  useEffect(() => {
    if (sentTo === null || now >= resendAt) return;
    const id = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(id);
  }, [sentTo, now, resendAt]);

  const send = async (event?: React.FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (!valid || sending || alreadySent || waitSeconds > 0) return;
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
      const r = await call(patientEndpoints.emailSend, {
        body: {
          linkId: props.linkId,
          email: email.trim(),
          lng: messageLanguage(i18n.language),
          ...(captchaToken ? { captchaToken } : {}),
        },
        auth: false,
      });
      setSentTo(normalizeEmail(email));
      setNow(Date.now());
      setResendAt(Date.now() + (r.resendAfterSeconds ?? DEFAULT_RESEND_SECONDS) * 1000);
    } catch (e) {
      if (isLinkStateFailure(e)) fail(e, { lookup: true });
      else setError(authErrorCode(e));
    } finally {
      setSending(false);
    }
  };

  // The form sent on the server's first screen before the app ran: sent now, once (checked as a send here is).
  const [pendingSend] = useState(() => firstScreenPending() === 'send');
  const pendingDone = useRef(false);
  useEffect(() => {
    if (!pendingSend || pendingDone.current) return;
    pendingDone.current = true;
    void send();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render's wish
  }, [pendingSend]);

  const showInvalid = touched && !valid;
  return (
    <PageLayout title={t('auth.emailTitle')}>
      <SessionExpiredNotice />
      <form className="card-panel" onSubmit={(e) => void send(e)} noValidate>
        <p>{t('auth.emailInstruction')}</p>
        <div className="mb-3">
          <label htmlFor={ids.email} className="form-label">
            {t('auth.emailLabel')}
          </label>
          <input
            id={ids.email}
            className={`form-control ${showInvalid ? 'is-invalid' : ''}`}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...{ [FIRST_SCREEN_FIELD_ATTR]: 'email' }}
            value={email}
            aria-invalid={showInvalid || undefined}
            aria-describedby={showInvalid ? ids.emailError : undefined}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setTouched(true)}
          />
          {showInvalid && (
            <div id={ids.emailError} className="invalid-feedback" role="alert">
              {t('auth.emailInvalid')}
            </div>
          )}
        </div>
        <button
          type="submit"
          className="btn btn-primary w-100"
          disabled={sending || alreadySent || waitSeconds > 0}
          aria-busy={sending || undefined}
          aria-describedby={!alreadySent && waitSeconds > 0 ? `${ids.email}-wait` : undefined}
        >
          {sending ? <ButtonSpinner /> : null}
          {alreadySent ? t('auth.emailLinkSent') : t('auth.sendEmailLink')}
        </button>
        <div aria-live="polite">
          {alreadySent && <p className="alert alert-success mt-3 mb-0">{t('auth.emailSentConfirmation')}</p>}
          {!alreadySent && waitSeconds > 0 && (
            <p id={`${ids.email}-wait`} className="form-text mt-2 mb-0" data-testid="email-resend-wait">
              {t('auth.emailResendIn', { count: waitSeconds })}
            </p>
          )}
        </div>
        <p className="form-text mt-3 mb-0">{t('auth.emailNote', { sender: config.practice.name })}</p>
        <div ref={captchaBox} className="captcha-box" />
      </form>
      {/* role="alert" announces itself; no live region around it (nested ones may announce twice). */}
      <div>{error && <AuthErrorAlert code={error} />}</div>
    </PageLayout>
  );
}
