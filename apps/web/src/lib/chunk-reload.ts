/**
 * A page chunk that fails to load (typically: a new deploy removed the old hashed files) reloads the page once
 * instead of showing an error. The flag in session storage stops a reload loop when the chunk is really gone.
 */
const FLAG = 'paylink.chunkReloadAt';
const WINDOW_MS = 30_000;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

/** Reloads and returns true, unless we already reloaded for this in the last 30 s. */
export function reloadOnceForChunkError(now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(window.sessionStorage.getItem(FLAG) ?? 0);
    if (now - last < WINDOW_MS) return false;
    window.sessionStorage.setItem(FLAG, String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** Vite reports failed preloads of lazy chunks with this event. */
export function installPreloadErrorReload() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnceForChunkError()) event.preventDefault();
  });
}
