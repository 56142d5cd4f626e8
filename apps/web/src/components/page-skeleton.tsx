import i18n from '../i18n';
import { bootShellElement } from '../boot-shell';

/**
 * What shows while a page chunk, translations or the config load: the page frame's shape, so nothing jumps.
 * Nothing while index.html's frame of the first screen is still in the page (decision 0184): that frame is the
 * loading state until the first page's PageLayout replaces it.
 */
export function PageSkeleton() {
  if (bootShellElement()) return null;
  return (
    <div className="app-shell" aria-busy="true">
      <div className="app-header">
        <div className="app-header-inner" />
      </div>
      <div className="app-main">
        <div className="app-loading">
          <span className="spinner-border" role="status">
            <span className="visually-hidden">{i18n.isInitialized ? i18n.t('loading') : 'Loading...'}</span>
          </span>
        </div>
      </div>
    </div>
  );
}
