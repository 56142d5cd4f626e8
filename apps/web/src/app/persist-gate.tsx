/**
 * Renders children once the persisted store has rehydrated (or the 5000 ms time-out passed). Our own ten lines
 * instead of redux-persist/integration/react, a CommonJS entry Vite 8 mis-builds (shared/notes/toolchain.md).
 */
import { useSyncExternalStore, type ReactNode } from 'react';
import type { Persistor } from 'redux-persist';

export function PersistGate(props: { persistor: Persistor; loading: ReactNode; children: ReactNode }) {
  const { persistor } = props;
  const ready = useSyncExternalStore(
    (cb) => persistor.subscribe(cb),
    () => persistor.getState().bootstrapped,
  );
  return ready ? props.children : props.loading;
}
