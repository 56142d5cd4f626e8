/**
 * The browser back button does nothing on the patient information, document, payment and confirmation pages
 * (spec section 2). Fixed interface: call useNeutralizeBack() once in the page component.
 * As in the spec, an extra history entry for the same page is pushed (through the router, so it knows the entry):
 * going back from the page lands on that page's own entry, never outside the app, even when the page replaced the
 * sign-in page. While the page is shown, every back (or forward) press is undone at once by pushing the page's entry
 * again (usePopBlocker, decisions 0024 and 0173): the URL and the page stay.
 */
import { useEffect } from 'react';
import { useHistory, useLocation, useNavigate, usePopBlocker } from './router';

export function useNeutralizeBack(enabled = true) {
  const history = useHistory();
  const location = useLocation();
  const navigate = useNavigate();
  usePopBlocker(enabled);

  const state = location.state as Record<string, unknown> | null;
  const pushed = state?.neutralBack === true;
  useEffect(() => {
    if (!enabled || pushed) return;
    // Once: a second run of this effect before the re-render (StrictMode) finds the entry already pushed.
    if (history.location().key !== location.key) return;
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { state: { ...state, neutralBack: true } },
    );
  }, [enabled, pushed, history, navigate, location.key, location.pathname, location.search, location.hash, state]);
}
