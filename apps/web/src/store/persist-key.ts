/** The persisted store's keys, without persist.ts's dependencies: vite.config.ts builds them into index.html. */
export const PERSIST_KEY = 'paylink';
export const PERSIST_STORAGE_KEY = `persist:${PERSIST_KEY}`;
