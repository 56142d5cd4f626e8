import { StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { silenceConsoleInProduction } from './lib/console';
import { installPreloadErrorReload } from './lib/chunk-reload';
import { initI18n } from './i18n';
import { loadAppConfig } from './lib/app-config';
import { persistor, store } from './store/store';
import { PersistGate } from './app/persist-gate';
import { AppRoutes, preloadPage } from './app/router';
import { createBrowserHistory, RouterProvider } from './lib/router';
import { PageSkeleton } from './components/page-skeleton';
import { startVitals } from './lib/vitals';
import { startSignInOptions } from './features/auth/early-sign-in-options';

silenceConsoleInProduction();
installPreloadErrorReload();
void loadAppConfig().catch(() => undefined); // start early; the root route shows the failure
startSignInOptions();
// The rest in new main-thread tasks: a phone does the start-up in a few short tasks instead of one long one
// (Lighthouse's Total Blocking Time; decision 0180). Not a top-level await: that splits the entry into many chunks.
setTimeout(() => {
  void initI18n();
  setTimeout(render, 0);
}, 0);

function render() {
  const browserHistory = createBrowserHistory();
  preloadPage(window.location.pathname); // the first page's chunk, alongside the store, the locale and the config
  startVitals();

  // A transition: React renders the first screen in slices of a few milliseconds instead of one long task that would
  // keep a slow phone's main thread busy (Lighthouse's Total Blocking Time; decision 0180).
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Provider store={store}>
          <PersistGate persistor={persistor} loading={<PageSkeleton />}>
            <Suspense fallback={<PageSkeleton />}>
              <RouterProvider history={browserHistory}>
                <AppRoutes />
              </RouterProvider>
            </Suspense>
          </PersistGate>
        </Provider>
      </StrictMode>,
    ),
  );
}
