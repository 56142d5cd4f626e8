/**
 * The router's error screen: RouteErrorBoundary around the routes catches what a page throws while rendering (a lazy
 * chunk that failed to load, a failed config request, a bug). A chunk failure reloads the page once; anything else
 * shows the spec's 'Unexpected Application Error!' with a reload button instead of a blank page. The next navigation
 * renders the routes again.
 */
import { Component, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from '../../lib/router';
import { useTranslation } from '../../i18n';
import { PageLayout } from '../../components/page-layout';
import { Spinner } from '../../components/spinner';
import { isChunkLoadError, reloadOnceForChunkError } from '../../lib/chunk-reload';
import { NetworkError } from '../../lib/api-client';
import { forgetFailedAppConfig } from '../../lib/app-config';

export function RouteErrorBoundary(props: { children: ReactNode }) {
  const { key } = useLocation();
  return <ErrorBoundary locationKey={key}>{props.children}</ErrorBoundary>;
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  locationKey: string;
}

class ErrorBoundary extends Component<{ locationKey: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false, error: null, locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: { locationKey: string }, state: BoundaryState): Partial<BoundaryState> | null {
    // A navigation clears the error, as a router's error screen does, and a failed config is asked for again.
    if (props.locationKey === state.locationKey) return null;
    if (state.failed) forgetFailedAppConfig();
    return { failed: false, error: null, locationKey: props.locationKey };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

export function RouteError(props: { error: unknown }) {
  const { error } = props;
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
