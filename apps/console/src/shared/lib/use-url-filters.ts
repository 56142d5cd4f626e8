import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A page's filters kept in the address, so the back button and a shared URL keep them. `update` sets the keys given
 * (an empty value clears one) without a new history entry; any change but the page's goes back to the first page.
 */
export function useUrlFilters(): [URLSearchParams, (patch: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (patch: Record<string, string | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch))
            if (v) next.set(k, v);
            else next.delete(k);
          if (!('page' in patch)) next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, update];
}
