/**
 * Full-page display of a failed product call (spec section 8): 'Error {status} {statusText}', or the answer's body
 * when there is no status text. Fixed interface: <ErrorDisplay error={e} /> (render it instead of the page; pair it
 * with useApiFailure, which routes network failures, link states and 401/403 before anything gets here). A
 * NetworkError or unexpected exception given directly still goes to the catch-all page.
 */
import { Navigate } from '../lib/router';
import { useTranslation } from '../i18n';
import { ApiError } from '../lib/api-client';
import { PageLayout } from './page-layout';

function errorTitle(error: ApiError): string {
  if (error.statusText) return `Error ${error.status} ${error.statusText}`;
  if (typeof error.body === 'string' && error.body) return error.body;
  return error.message || `Error ${error.status}`;
}

export function ErrorDisplay(props: { error: unknown }) {
  const { t } = useTranslation();
  const { error } = props;
  if (!(error instanceof ApiError)) {
    return <Navigate to="/notfound" replace state={{ reason: 'network' }} />;
  }
  const detail = error.statusText && error.body && typeof error.body === 'object' ? error.message : undefined;
  return (
    <PageLayout title={errorTitle(error)}>
      <div className="alert alert-danger" role="alert">
        {detail && <p className="mb-2">{detail}</p>}
        <p className="mb-0">{t('errors.callFailedHint')}</p>
      </div>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </button>
    </PageLayout>
  );
}
