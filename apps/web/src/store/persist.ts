/**
 * How the store is persisted (spec sections 3 and 9): every slice under one root key (`persist:paylink`), version 1,
 * AES-CBC encrypted with a passphrase from the build config (VITE_PERSIST_KEY), rehydration time-out 5000 ms.
 * The session token is blanked before anything is written, and a slice that cannot be decrypted (another key,
 * tampering) comes back as its initial state.
 * Each slice is encrypted in the storage layer with WebCrypto (decision 0171), byte-compatible with what
 * redux-persist-transform-encrypt + crypto-js wrote before, so stored state survives the change with no migration.
 */
import { createTransform, type PersistConfig, type Storage } from 'redux-persist';
import { decryptText, encryptText } from '../lib/openssl-aes';
import { PERSIST_KEY, PERSIST_STORAGE_KEY } from './persist-key';

export { PERSIST_STORAGE_KEY };
export const DEFAULT_PERSIST_PASSPHRASE = 'paylink-default-persist-passphrase';

/**
 * A plain localStorage adapter. redux-persist/lib/storage is a CommonJS default export that Vite 8 builds into a
 * crash (shared/notes/toolchain.md), so we write the ten lines ourselves.
 */
const ls = () => (typeof window === 'undefined' ? undefined : window.localStorage);
const localStorageAdapter: Storage = {
  getItem: async (key: string) => ls()?.getItem(key) ?? null,
  setItem: async (key: string, value: string) => ls()?.setItem(key, value),
  removeItem: async (key: string) => ls()?.removeItem(key),
};

/**
 * The stored value is redux-persist's outer JSON `{ slice: "<slice JSON>" }`; every slice's JSON is replaced by the
 * JSON string of its OpenSSL-format AES text (what the crypto-js transform stored). A slice that does not decrypt is
 * read back as `null`, which `fallBackToInitial` turns into the slice's initial state. Writes are queued so an
 * older write never lands after a newer one.
 */
function encryptedStorage(inner: Storage, passphrase: string): Storage {
  let queue: Promise<unknown> = Promise.resolve();
  const mapSlices = async (json: string, f: (v: string) => Promise<string>) => {
    const outer = JSON.parse(json) as Record<string, string>;
    const entries = await Promise.all(Object.entries(outer).map(async ([k, v]) => [k, await f(v)] as const));
    return JSON.stringify(Object.fromEntries(entries));
  };
  return {
    getItem: async (key: string) => {
      await queue;
      const raw = (await inner.getItem(key)) as string | null;
      if (!raw) return raw;
      try {
        return await mapSlices(raw, (v) => decryptText(JSON.parse(v) as string, passphrase).catch(() => 'null'));
      } catch {
        return null; // not our format at all: start clean
      }
    },
    setItem: (key: string, value: string) => {
      const write = queue.then(async () =>
        inner.setItem(key, await mapSlices(value, async (v) => JSON.stringify(await encryptText(v, passphrase)))),
      );
      queue = write.catch(() => undefined);
      return write;
    },
    removeItem: (key: string) => {
      const write = queue.then(() => inner.removeItem(key));
      queue = write.catch(() => undefined);
      return write;
    },
  };
}

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
    storage: encryptedStorage(opts.storage ?? localStorageAdapter, opts.passphrase),
    timeout: 5000,
    // In: blank → fallback (identity), then the storage encrypts. Out: the storage decrypts, then fallback → blank.
    transforms: [blankToken, fallBackToInitial],
  };
}
