import i18n from '../i18n';

/** What shows while a page chunk, translations or the config load: the page frame's shape, so nothing jumps. */
export function PageSkeleton() {
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
