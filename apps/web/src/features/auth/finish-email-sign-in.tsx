import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { patientEndpoints } from '@paylink/shared';
import { PageLayout } from '../../components/page-layout';
import { ButtonSpinner } from '../../components/spinner';
import { useAppDispatch } from '../../store/hooks';
import { signedIn } from '../../store/auth-slice';
import { call } from '../../lib/api-client';
import { useApiFailure } from '../../lib/use-api-failure';
import { authErrorCode, isLinkStateFailure } from './auth-errors';
import { AuthErrorAlert } from './auth-error-alert';

/**
 * The e-mailed link's landing: mail scanners open links before people do, so only this click (a POST) signs in.
 * A used or expired link offers to ask for a new one (back to the e-mail form).
 */
export function FinishEmailSignIn(props: {
  linkId: string;
  oobCode: string;
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const fail = useApiFailure();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const finish = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await call(patientEndpoints.emailVerify, {
        body: { linkId: props.linkId, oobCode: props.oobCode },
        auth: false,
      });
      dispatch(signedIn({ token: r.token, expiresAt: r.expiresAt }));
      props.onSignedIn();
    } catch (e) {
      setBusy(false);
      if (isLinkStateFailure(e)) fail(e, { lookup: true });
      else setError(authErrorCode(e));
    }
  };

  const linkDead = error === 'auth/expired-action-code' || error === 'auth/invalid-action-code';
  return (
    <PageLayout title={t('auth.finishTitle')}>
      <div className="card-panel">
        <p>{t('auth.finishInstruction')}</p>
        <button
          type="button"
          className="btn btn-primary w-100"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => void finish()}
        >
          {busy ? <ButtonSpinner /> : null}
          {t('auth.continue')}
        </button>
        <p className="form-text mt-3 mb-0">{t('auth.doNotRefresh')}</p>
      </div>
      {/* role="alert" announces itself; no live region around it (nested ones may announce twice). */}
      <div>{error && <AuthErrorAlert code={error} />}</div>
      {linkDead && (
        <button type="button" className="btn btn-outline-primary" onClick={props.onRestart}>
          {t('auth.sendEmailLink')}
        </button>
      )}
    </PageLayout>
  );
}
