/**
 * The browser back button does nothing on the patient information, document, payment and confirmation pages
 * (spec section 2). Fixed interface: call useNeutralizeBack() once in the page component.
 * React Router's blocker stops the POP navigation and restores the URL, the same effect as the spec's re-pushed
 * history entry without desynchronising the router's own history index.
 */
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

export function useNeutralizeBack(enabled = true) {
  const blocker = useBlocker(({ historyAction }) => enabled && historyAction === 'POP');
  useEffect(() => {
    if (blocker.state === 'blocked') blocker.reset();
  }, [blocker]);
}
