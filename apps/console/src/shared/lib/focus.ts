import { useEffect, useRef } from 'react';

/**
 * Focus for results that appear after a button was pressed (issue 29, item 6; decision 0220): the button is disabled
 * or gone by then, and the browser would leave focus on <body>. The returned ref's element (a heading, status or
 * error with `tabIndex={-1}`) takes focus each time `when` becomes a new truthy value, so a keyboard user is where the
 * answer is and a screen reader reads it.
 */
export function useFocusWhen<T extends HTMLElement>(when: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
