/**
 * The router's error screen: a lazy chunk that failed to load reloads the page once; anything else shows the spec's
 * 'Unexpected Application Error!' with a reload button instead of a blank page.
 */
import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { useTranslation } from '../../i18n';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { isChunkLoadError, reloadOnceForChunkError } from '../../lib/chunk-reload';
import { NetworkError } from '../../lib/api-client';

export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const [reloading] = useState(() => isChunkLoadError(error) && reloadOnceForChunkError());
  useEffect(() => {
    if (import.meta.env.DEV && !reloading) console.error(error); // eslint-disable-line no-console
  }, [error, reloading]);
  if (reloading) {
    return (
      <div className="app-loading">
        <Spinner />
      </div>
    );
  }
  if (error instanceof NetworkError) {
    // The catch-all's network variant (spec section 8), in place: the config or a loader could not be fetched.
    return (
      <PageLayout title={t('errors.notFoundTitle')}>
        <p className="lead-hint">{t('errors.networkHint')}</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {t('errors.tryAgain')}
        </button>
      </PageLayout>
    );
  }
  return (
    <PageLayout title={t('errors.unexpectedTitle')}>
      <p className="lead-hint">{t('errors.unexpectedHint')}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </button>
    </PageLayout>
  );
}
