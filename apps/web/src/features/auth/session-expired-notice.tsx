import { useEffect, useState } from 'react';
import { useLocation } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { clearSessionExpiredNotice, sessionExpiredNoticePending, type AuthRouteState } from '../../lib/session';

/** Says why a patient whose session ran out is back on /auth (issue 16, item 8). */
export function SessionExpiredNotice() {
  const { t } = useTranslation();
  const state = useLocation().state as AuthRouteState | null;
  const [shown] = useState(() => Boolean(state?.sessionExpired) || sessionExpiredNoticePending());
  // Said once: leaving the sign-in page (signed in again) forgets it.
  useEffect(() => () => clearSessionExpiredNotice(), []);
  if (!shown) return null;
  return (
    <div className="alert alert-info" role="status" data-testid="session-expired">
      {t('auth.sessionExpired')}
    </div>
  );
}
