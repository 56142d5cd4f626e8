/**
 * The installation's browser config from GET /api/config (shared AppConfig: practice { name, supportPhone,
 * supportEmail, logoUrl }, signOrigin, gateway { checkoutJsUrl, threeDSSdkUrl, threeDSBaseUrl }, captchaSiteKey,
 * sandbox). Fixed interface: useAppConfig() → AppConfig (never null: <AppConfigProvider> renders its children only
 * once the config is loaded). loadAppConfig() starts the request early (main.tsx) and is shared by every caller.
 */
import { createContext, use, useState, type ReactNode } from 'react';
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
  if (props.value) return <AppConfigContext value={props.value}>{props.children}</AppConfigContext>;
  return <LoadedConfig>{props.children}</LoadedConfig>;
}

function LoadedConfig(props: { children: ReactNode }) {
  // `use` suspends until the config arrives; a failure reaches the nearest error boundary.
  const [promise] = useState(loadAppConfig);
  const config = loaded ?? use(promise);
  return <AppConfigContext value={config}>{props.children}</AppConfigContext>;
}

export function useAppConfig(): AppConfig {
  const c = use(AppConfigContext);
  if (!c) throw new Error('useAppConfig() outside <AppConfigProvider>');
  return c;
}
