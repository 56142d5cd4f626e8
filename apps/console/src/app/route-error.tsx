import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;
const RELOAD_KEY = 'paylink.console.chunkReload';

/** A render failure; a screen's chunk that vanished after a deploy reloads the page once instead. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = error instanceof Error && CHUNK_FAILURE.test(error.message);
  useEffect(() => {
    if (!chunk) return;
    const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    if (Date.now() - last > 30_000) {
      sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
      window.location.reload();
    }
  }, [chunk]);
  return (
    <main id="main" className="container py-5">
      <h1 className="h3">{t('errors.unexpectedTitle')}</h1>
      <p>{t('errors.unexpected')}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </main>
  );
}
