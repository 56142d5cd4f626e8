/** Spec section 9: no console output in production builds. */
export function silenceConsoleInProduction() {
  if (!import.meta.env.PROD) return;
  const noop = () => undefined;
  // eslint-disable-next-line no-console -- the one place that switches console output off
  for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) console[level] = noop;
}
