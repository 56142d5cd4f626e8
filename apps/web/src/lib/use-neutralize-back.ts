/**
 * The browser back button does nothing on the patient information, document, payment and confirmation pages
 * (spec section 2). Fixed interface: call useNeutralizeBack() once in the page component.
 * As in the spec, an extra history entry for the same page is pushed (through the router, so its history index stays
 * right): going back from the page never leaves the app, even when the page replaced the sign-in page. React Router's
 * blocker then stops every back (POP) navigation and restores the URL.
 */
import { useEffect } from 'react';
import { useBlocker, useLocation, useNavigate } from 'react-router';

export function useNeutralizeBack(enabled = true) {
  const location = useLocation();
  const navigate = useNavigate();
  const blocker = useBlocker(({ historyAction }) => enabled && historyAction === 'POP');
  useEffect(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);

  const state = location.state as Record<string, unknown> | null;
  const pushed = state?.neutralBack === true;
  useEffect(() => {
    if (!enabled || pushed) return;
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { state: { ...state, neutralBack: true } },
    );
  }, [enabled, pushed, navigate, location.pathname, location.search, location.hash, state]);
}
