import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmailSendResult } from '@paylink/shared';
import { PageLayout } from '../../components/page-layout';
import { ButtonSpinner } from '../../components/spinner';
import { useAppConfig } from '../../lib/app-config';
import { api } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { authErrorCode, authErrorText, isLinkStateFailure } from './auth-errors';
import { messageLanguage } from './message-language';
import { getCaptchaToken } from './turnstile';

/** The same loose shape check the server makes; the server has the last word (auth/invalid-email). */
export const looksLikeEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** E-mail variant: title, instruction, e-mail field, a button that becomes 'Email link sent…', the no-reply note. */
export function EmailSignIn(props: { linkId: string; captchaSiteKey: string | null }) {
  const { t, i18n } = useTranslation();
  const config = useAppConfig();
  const fail = useApiFailure();
  const ids = { email: useId(), emailError: useId() };
  const captchaBox = useRef<HTMLDivElement>(null);
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = looksLikeEmail(email);
  const alreadySent = sentTo !== null && sentTo === email.trim().toLowerCase();

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || sending || alreadySent) return;
    setSending(true);
    setError(null);
    try {
      let captchaToken: string | undefined;
      if (props.captchaSiteKey && captchaBox.current) {
        try {
          captchaToken = await getCaptchaToken(props.captchaSiteKey, captchaBox.current, i18n.language);
        } catch {
          setError('auth/captcha-check-failed');
          return;
        }
      }
      await api.post<EmailSendResult>('/api/auth/email/send', {
        body: {
          linkId: props.linkId,
          email: email.trim(),
          lng: messageLanguage(i18n.language),
          ...(captchaToken ? { captchaToken } : {}),
        },
        auth: false,
      });
      setSentTo(email.trim().toLowerCase());
    } catch (e) {
      if (isLinkStateFailure(e)) fail(e, { lookup: true });
      else setError(authErrorCode(e));
    } finally {
      setSending(false);
    }
  };

  const showInvalid = touched && !valid;
  return (
    <PageLayout title={t('auth.emailTitle')}>
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
          disabled={sending || alreadySent}
          aria-busy={sending || undefined}
        >
          {sending ? <ButtonSpinner /> : null}
          {alreadySent ? t('auth.emailLinkSent') : t('auth.sendEmailLink')}
        </button>
        <div aria-live="polite">
          {alreadySent && <p className="alert alert-success mt-3 mb-0">{t('auth.emailSentConfirmation')}</p>}
        </div>
        <p className="form-text mt-3 mb-0">{t('auth.emailNote', { sender: config.practice.name })}</p>
        <div ref={captchaBox} className="captcha-box" />
      </form>
      <div aria-live="assertive">
        {error && (
          <div className="alert alert-danger" role="alert">
            {authErrorText(t, error)}
          </div>
        )}
      </div>
    </PageLayout>
  );
}
