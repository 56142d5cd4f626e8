/**
 * The installation's browser config from GET /api/config (shared AppConfig: practice { name, supportPhone,
 * supportEmail, logoUrl }, signOrigin, gateway { checkoutJsUrl, threeDSSdkUrl, threeDSBaseUrl }, captchaSiteKey,
 * sandbox). Fixed interface: useAppConfig() → AppConfig (never null: <AppConfigProvider> renders its children only
 * once the config is loaded). loadAppConfig() starts the request early (main.tsx) and is shared by every caller.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { patientEndpoints, type AppConfig } from '@paylink/shared';
import { call } from './api-client';

export const AppConfigContext = createContext<AppConfig | null>(null);

let pending: Promise<AppConfig> | null = null;
let loaded: AppConfig | null = null;
export function loadAppConfig(): Promise<AppConfig> {
  pending ??= call(patientEndpoints.config, { auth: false }).then(
    (c) => (loaded = c),
    (e: unknown) => {
      pending = null; // a later retry asks again
      throw e;
    },
  );
  return pending;
}

export function AppConfigProvider(props: { children: ReactNode; value?: AppConfig }) {
  if (props.value) return <AppConfigContext.Provider value={props.value}>{props.children}</AppConfigContext.Provider>;
  return <LoadedConfig>{props.children}</LoadedConfig>;
}

const settled = new WeakMap<Promise<AppConfig>, { value: AppConfig } | { error: unknown }>();
// The promise the provider waits on. React 18 forgets the state of a component that suspended before it first
// showed, and renders a failed tree again before showing the error: kept here, neither starts a new request.
let waitingOn: Promise<AppConfig> | null = null;

/** React 18's Suspense contract: throw a promise to wait for it; a failure reaches the nearest error boundary. */
function read(promise: Promise<AppConfig>): AppConfig {
  const result = settled.get(promise);
  if (!result)
    throw promise.then(
      (value) => void settled.set(promise, { value }),
      (error: unknown) => void settled.set(promise, { error }),
    );
  if ('error' in result) throw result.error;
  return result.value;
}

/** After the error screen: the next render asks the server again (the error boundary calls this on a navigation). */
export function forgetFailedAppConfig(): void {
  if (waitingOn && settled.get(waitingOn) && 'error' in settled.get(waitingOn)!) waitingOn = null;
}

function LoadedConfig(props: { children: ReactNode }) {
  const config = loaded ?? read((waitingOn ??= loadAppConfig()));
  return <AppConfigContext.Provider value={config}>{props.children}</AppConfigContext.Provider>;
}

export function useAppConfig(): AppConfig {
  const c = useContext(AppConfigContext);
  if (!c) throw new Error('useAppConfig() outside <AppConfigProvider>');
  return c;
}
