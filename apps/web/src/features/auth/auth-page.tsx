/**
 * /auth (spec section 2 screen 1, issue 3 "Client: /auth"). Reads `id` (no id → /forbidden) and the full link,
 * remembers the link id, sends a signed-in user straight to /patientinfo, asks the server which sign-in method the
 * link uses (GET /api/auth/options) and shows the phone or the e-mail variant. While it asks, the method the server
 * named in the page's HTML (decision 0185) already gives the heading and instruction. An e-mailed link (oobCode)
 * lands on a one-click "Continue" that finishes signing in (opening the link alone changes nothing).
 */
import { startTransition, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { LINK_ID_PATTERN, patientEndpoints, type AuthOptions } from '@paylink/shared';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { clearSessionData, persistor } from '../../store/store';
import { isSessionValid, signOut } from '../../store/auth-slice';
import { setLink } from '../../store/link-slice';
import { call } from '../../lib/api-client';
import { rememberLinkId } from '../../lib/link-id';
import { useApiFailure } from '../../lib/use-api-failure';
import { SmsSignIn } from './sms-sign-in';
import { EmailSignIn } from './email-sign-in';
import { FinishEmailSignIn } from './finish-email-sign-in';
import { takeSignInOptions } from './early-sign-in-options';
import { signInMethodHint, signInPhoneHint } from './sign-in-hint';
import { SignInLoading } from './sign-in-loading';
import { afterSignIn, forgetCardIntent, rememberCardIntent } from '../../lib/card-intent';

/** The personal link as the coordinator sent it: no one-time codes or tokens are kept. */
function personalLink(linkId: string): string {
  return `${window.location.origin}/auth?id=${encodeURIComponent(linkId)}`;
}

export default function AuthPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const linkId = params.get('id') ?? '';
  const oobCode = params.get('mode') === 'signIn' ? params.get('oobCode') : null;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const fail = useApiFailure();
  const auth = useAppSelector((s) => s.auth);
  const storedLinkId = useAppSelector((s) => s.link.link_id);
  const [options, setOptions] = useState<AuthOptions | null>(null);
  const [phone, setPhone] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(Boolean(oobCode));

  const validId = LINK_ID_PATTERN.test(linkId);
  // No stored link yet with a valid session: the token just arrived in the URL for this link.
  const signedInHere = isSessionValid(auth) && (storedLinkId === linkId || !storedLinkId);

  // Remember this link; a different link than the one signed in to starts from scratch.
  useEffect(() => {
    if (!validId) return;
    if (storedLinkId && storedLinkId !== linkId) {
      dispatch(signOut());
      clearSessionData(dispatch);
    }
    if (storedLinkId !== linkId) dispatch(setLink({ link_id: linkId, redirect_link: personalLink(linkId) }));
    rememberLinkId(linkId);
    rememberCardIntent(linkId, window.location.search);
  }, [validId, linkId, storedLinkId, dispatch]);

  useEffect(() => {
    if (!validId || signedInHere || finishing) return;
    const ac = new AbortController();
    (async () => {
      try {
        const opts = await (takeSignInOptions(linkId) ??
          call(patientEndpoints.authOptions, { query: { linkId }, auth: false, signal: ac.signal }));
        if (ac.signal.aborted) return;
        if (opts.method === 'sms') {
          const masked =
            signInPhoneHint(linkId) ??
            (await call(patientEndpoints.phoneToVerify, {
              params: { linkId },
              query: { c: 'p' },
              auth: false,
              responseType: 'text',
              signal: ac.signal,
            }));
          startTransition(() => setPhone(masked));
        }
        // The sign-in form renders in slices (a transition), not in one long task (decision 0180).
        startTransition(() => setOptions(opts));
      } catch (e) {
        if (ac.signal.aborted) return;
        const shown = fail(e, { lookup: true });
        if (shown) void navigate('/notfound', { replace: true, state: { reason: 'exception' } });
      }
    })();
    return () => ac.abort();
  }, [validId, linkId, signedInHere, finishing, fail, navigate]);

  if (!linkId) return <Navigate to="/forbidden" replace />;
  if (!validId) return <Navigate to="/notauthorized" replace />;
  // A patient who came to replace a plan's card goes to that page (decision 0211), everyone else to /patientinfo.
  const next = afterSignIn(linkId, window.location.search);
  if (signedInHere && !finishing) return <Navigate to={next} replace />;

  // The signed-in state is written to storage before the next page shows: a reload right away (a phone's tab
  // reloading as the SMS app opens) must not land on sign-in again.
  const onSignedIn = () =>
    void persistor
      .flush()
      .catch(() => undefined)
      .then(() => {
        forgetCardIntent(); // used once: a later sign-in on this link goes to the usual page
        return navigate(next, { replace: true });
      });

  if (finishing && oobCode) {
    return (
      <FinishEmailSignIn
        linkId={linkId}
        oobCode={oobCode}
        onSignedIn={onSignedIn}
        onRestart={() => setFinishing(false)}
      />
    );
  }
  if (!options || (options.method === 'sms' && phone === null)) {
    const method = options?.method ?? signInMethodHint(linkId);
    if (method) return <SignInLoading method={method} />;
    return (
      <PageLayout title={t('auth.checkingLink')}>
        <div className="app-loading">
          <Spinner />
        </div>
      </PageLayout>
    );
  }
  return options.method === 'sms' ? (
    <SmsSignIn linkId={linkId} phone={phone ?? ''} captchaSiteKey={options.captchaSiteKey} onSignedIn={onSignedIn} />
  ) : (
    <EmailSignIn linkId={linkId} captchaSiteKey={options.captchaSiteKey} />
  );
}
