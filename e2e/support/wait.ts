/**
 * Polling on what a user (or an API client) would notice, instead of fixed sleeps. Playwright's locator waits cover
 * the page; this covers everything else (the outbox, the admin API, values computed in the page).
 */
export interface EventuallyOptions {
  timeout?: number;
  interval?: number;
  message?: string;
}

/** Calls `probe` until it returns a truthy value (returned) or the time runs out (throws with the last error). */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeout = 15_000, interval = 150, message = 'condition' }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`Timed out after ${timeout} ms waiting for ${message}${why}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
