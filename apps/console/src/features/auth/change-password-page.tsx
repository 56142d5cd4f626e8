import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { PageTitle } from '../../shared/components/page-title';
import { Loading } from '../../shared/components/query-state';
import { SESSION_QUERY_KEY, signOut, type SessionInfo } from '../../shared/session/session-api';
import { useSession } from '../../shared/session/use-session';
import { AuthShell } from './auth-shell';
import { ChangePasswordForm } from './change-password-form';

/** After an admin's reset: the user chooses their own password before anything else. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (session.isPending) return <Loading />;
  if (!session.data) return <Navigate to="/sign-in" replace />;
  if (!session.data.passwordChangeRequired) return <Navigate to="/" replace />;
  const s = session.data;
  const done = () => {
    queryClient.setQueryData<SessionInfo | null>(SESSION_QUERY_KEY, (old) =>
      old ? { ...old, passwordChangeRequired: false } : old,
    );
    void navigate(s.twoFactor.enrolmentRequired ? '/security' : '/', { replace: true });
  };
  return (
    <AuthShell>
      <PageTitle>{t('password.requiredTitle')}</PageTitle>
      <div className="alert alert-warning" role="status">
        {t('password.required')}
      </div>
      <ChangePasswordForm twoFactor={s.user.twoFactorEnabled} currentLabel={t('password.temporary')} onDone={done} />
      <button
        type="button"
        className="btn btn-link px-0 mt-2"
        onClick={() =>
          void signOut()
            .catch(() => undefined)
            .then(() => {
              queryClient.setQueryData(SESSION_QUERY_KEY, null);
              void navigate('/sign-in', { replace: true });
            })
        }
      >
        {t('layout.signOut')}
      </button>
    </AuthShell>
  );
}
