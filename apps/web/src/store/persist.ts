/**
 * How the store is persisted (spec sections 3 and 9): every slice under one root key (`persist:paylink`), version 1,
 * AES-CBC encrypted with a passphrase from the build config (VITE_PERSIST_KEY), rehydration time-out 5000 ms.
 * The session token is blanked before anything is written, and a slice that cannot be decrypted (another key,
 * tampering) comes back as its initial state.
 */
import { createTransform, type PersistConfig, type Storage } from 'redux-persist';
import { encryptTransform } from 'redux-persist-transform-encrypt';

export const PERSIST_KEY = 'paylink';
export const PERSIST_STORAGE_KEY = `persist:${PERSIST_KEY}`;
export const DEFAULT_PERSIST_PASSPHRASE = 'paylink-default-persist-passphrase';

/**
 * A plain localStorage adapter. redux-persist/lib/storage is a CommonJS default export that Vite 8 builds into a
 * crash (shared/notes/toolchain.md), so we write the ten lines ourselves.
 */
const ls = () => (typeof window === 'undefined' ? undefined : window.localStorage);
export const localStorageAdapter: Storage = {
  getItem: async (key: string) => ls()?.getItem(key) ?? null,
  setItem: async (key: string, value: string) => ls()?.setItem(key, value),
  removeItem: async (key: string) => ls()?.removeItem(key),
};

/** auth.access_token lives in memory only. */
const blankToken = createTransform(
  (inbound: Record<string, unknown>) => ({ ...inbound, access_token: '' }),
  (outbound: Record<string, unknown>) => ({ ...outbound, access_token: '' }),
  { whitelist: ['auth'] },
);

export function persistConfig<S>(opts: {
  passphrase: string;
  initialState: Record<string, unknown>;
  storage?: Storage;
}): PersistConfig<S> {
  // Runs after decryption on the way out: a slice that failed to decrypt is undefined here.
  const fallBackToInitial = createTransform(
    (inbound: unknown) => inbound,
    (outbound: unknown, key) =>
      outbound === undefined || outbound === null ? opts.initialState[String(key)] : outbound,
  );
  return {
    key: PERSIST_KEY,
    version: 1,
    storage: opts.storage ?? localStorageAdapter,
    timeout: 5000,
    // In: blank → fallback (identity) → encrypt. Out (reverse): decrypt → fallback → blank.
    transforms: [
      blankToken,
      fallBackToInitial,
      encryptTransform({ secretKey: opts.passphrase, onError: () => undefined }),
    ],
  };
}
