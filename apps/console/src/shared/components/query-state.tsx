import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../api/client';

export function Loading(props: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="d-flex align-items-center gap-2 text-secondary py-4" role="status">
      <span className="spinner-border spinner-border-sm" aria-hidden="true" />
      <span>{props.label ?? t('common.loading')}</span>
    </div>
  );
}

/** The human message for a failed call: the server's own message for 4xx, a friendly one otherwise. */
export function useErrorMessage(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    if (error instanceof NetworkError) return t('errors.network');
    if (error instanceof ApiError) {
      if (error.status === 403) return t('errors.forbidden');
      if (error.status === 404) return t('errors.notFound');
      if (error.status === 429) return error.message || t('errors.tooMany');
      if (error.status >= 500) return t('errors.server');
      return error.message;
    }
    return t('errors.unexpected');
  };
}

export function ErrorAlert(props: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = useErrorMessage();
  return (
    <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
      <span className="me-auto">{message(props.error)}</span>
      {props.onRetry && (
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={props.onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
