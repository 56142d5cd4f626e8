/**
 * Renders children once the persisted store has rehydrated (or the 5000 ms time-out passed). Our own lines instead
 * of redux-persist/integration/react, a CommonJS entry Vite 8 mis-builds (shared/notes/toolchain.md).
 * The switch to the children is a transition (decision 0180): React renders the whole app in slices of a few
 * milliseconds that let the phone's main thread breathe, instead of one long task (a store update read through
 * useSyncExternalStore would render synchronously). When the store is ready before the first render (nothing
 * persisted yet), the children show at once.
 */
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import type { Persistor } from 'redux-persist';

export function PersistGate(props: { persistor: Persistor; loading: ReactNode; children: ReactNode }) {
  const { persistor } = props;
  const [ready, setReady] = useState(() => persistor.getState().bootstrapped);
  useEffect(() => {
    if (ready) return;
    const check = () => {
      if (persistor.getState().bootstrapped) startTransition(() => setReady(true));
    };
    const unsubscribe = persistor.subscribe(check);
    check();
    return unsubscribe;
  }, [persistor, ready]);
  return ready ? props.children : props.loading;
}
