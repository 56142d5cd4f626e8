/**
 * Session expiry (spec sections 4 and 6, WCAG 2.2.1): one minute before exp_Date a dialog offers to stay signed in
 * (POST /api/auth/session/refresh → new token and expiry); at exp_Date the user is signed out and, on a guarded
 * page, sent to /auth.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from '../lib/router';
import { useTranslation } from '../i18n';
import { patientEndpoints } from '@paylink/shared';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { sessionRefreshed, signOut } from '../store/auth-slice';
import { call } from '../lib/api-client';
import { signOutAndRedirect } from '../lib/session';

const WARN_BEFORE_MS = 60_000;
const PUBLIC_PATHS = [
  '/auth',
  '/confirmation',
  '/linkexpired',
  '/linkcancelled',
  '/stepscomplete',
  '/notauthorized',
  '/forbidden',
  '/paymenterror',
];

export function SessionWatch() {
  const { t } = useTranslation();
  const exp = useAppSelector((s) => s.auth.exp_Date);
  const linkId = useAppSelector((s) => s.link.link_id);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [warning, setWarning] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(60);
  const dialog = useRef<HTMLDialogElement>(null);
  const guarded = !PUBLIC_PATHS.includes(pathname);

  useEffect(() => {
    const expiry = Date.parse(exp);
    if (!Number.isFinite(expiry)) return;
    const now = Date.now();
    const timers: number[] = [];
    const expire = () => {
      setWarning(false);
      if (guarded) signOutAndRedirect(dispatch, navigate, linkId, 'expired');
      else dispatch(signOut());
    };
    if (expiry <= now) {
      timers.push(window.setTimeout(expire, 0));
    } else {
      timers.push(window.setTimeout(expire, Math.min(expiry - now, 2 ** 31 - 1)));
      if (guarded) {
        timers.push(window.setTimeout(() => setWarning(true), Math.max(0, expiry - now - WARN_BEFORE_MS)));
      }
    }
    return () => timers.forEach((id) => window.clearTimeout(id));
  }, [exp, guarded, dispatch, navigate, linkId]);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    // Browsers without <dialog> support (and jsdom) get a plain open attribute: still labelled, still in the page.
    if (warning && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    }
    if (!warning && d.open) {
      if (typeof d.close === 'function') d.close();
      else d.removeAttribute('open');
    }
    if (!warning) return;
    const tick = () => setSecondsLeft(Math.max(0, Math.round((Date.parse(exp) - Date.now()) / 1000)));
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [warning, exp]);

  const stay = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const r = await call(patientEndpoints.sessionRefresh);
      dispatch(sessionRefreshed({ token: r.token, expiresAt: r.expiresAt }));
      setWarning(false);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="session-dialog"
      aria-labelledby="session-dialog-title"
      aria-describedby="session-dialog-body"
      onCancel={(e) => {
        e.preventDefault();
        void stay();
      }}
    >
      {warning && (
        <>
          <h2 id="session-dialog-title" className="h5">
            {t('session.warnTitle')}
          </h2>
          <p id="session-dialog-body">{t('session.warnBody', { count: secondsLeft })}</p>
          {failed && (
            <p className="text-danger" role="alert">
              {t('session.refreshFailed')}
            </p>
          )}
          <div className="d-flex gap-2 flex-wrap">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void stay()} autoFocus>
              {t('session.stay')}
            </button>
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => {
                setWarning(false);
                signOutAndRedirect(dispatch, navigate, linkId);
              }}
            >
              {t('session.signOut')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
