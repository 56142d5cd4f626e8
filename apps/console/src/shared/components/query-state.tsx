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

/**
 * The human message for a failed call, in the console's language: a refusal code the console knows has its own text
 * (errors.codes.<code>, shared/i18n/error-codes.ts; the answer's `details` and `values` fill its placeholders, e.g.
 * consoleUrl, maxMb); too-many answers say
 * how long to wait; an unknown 4xx code falls back to the server's own (English) sentence.
 */
export function useErrorMessage(): (error: unknown, values?: Record<string, unknown>) => string {
  const { t, i18n } = useTranslation();
  return (error, values) => {
    if (error instanceof NetworkError) return t('errors.network');
    if (error instanceof ApiError) {
      if (error.status === 429) {
        const seconds = Number((error.body as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds);
        return Number.isFinite(seconds) && seconds > 0
          ? t('errors.tooManyWait', { seconds: Math.ceil(seconds) })
          : t('errors.tooMany');
      }
      // invalid_request's sentence names the exact problem (e.g. "The webhook URL must use https."): English readers
      // keep it; other languages get the translated general one rather than English.
      if (error.code === 'invalid_request' && i18n.language === 'en') return error.message;
      const key = `errors.codes.${error.code}`;
      if (error.code && i18n.exists(key)) return t(key, { ...error.details, ...values });
      if (error.status === 403) return t('errors.forbidden');
      if (error.status === 404) return t('errors.notFound');
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
