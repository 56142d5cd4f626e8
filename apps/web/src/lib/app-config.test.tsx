import { Component, Suspense, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { HttpResponse, http, server, setupMsw, testConfig } from '../test/msw';

setupMsw();

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>config failed</p> : this.props.children;
  }
}

/** app-config keeps the config for the page's life, so each case starts from a fresh copy of the module. */
async function freshAppConfig() {
  vi.resetModules();
  return import('./app-config');
}

function Practice(props: { use: () => { practice: { name: string } } }) {
  return <p>{props.use().practice.name}</p>;
}

describe('AppConfigProvider', () => {
  it('waits for /api/config, then renders its children with it', async () => {
    const { AppConfigProvider, useAppConfig } = await freshAppConfig();
    render(
      <Suspense fallback={<p>loading</p>}>
        <AppConfigProvider>
          <Practice use={useAppConfig} />
        </AppConfigProvider>
      </Suspense>,
    );
    expect(await screen.findByText(testConfig.practice.name)).toBeInTheDocument();
  });

  it('a config that cannot be loaded reaches the error boundary after one request, not a request loop', async () => {
    let requests = 0;
    server.use(
      http.get('*/api/config', () => {
        requests += 1;
        return HttpResponse.error();
      }),
    );
    const { AppConfigProvider, useAppConfig } = await freshAppConfig();
    render(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <AppConfigProvider>
            <Practice use={useAppConfig} />
          </AppConfigProvider>
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText('config failed', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(requests).toBe(1);
  });

  it('after the error screen, the next try (a navigation) asks the server again', async () => {
    server.use(http.get('*/api/config', () => HttpResponse.error(), { once: true }));
    const { AppConfigProvider, useAppConfig, forgetFailedAppConfig } = await freshAppConfig();
    const tree = (key: string) => (
      <Boundary key={key}>
        <Suspense fallback={<p>loading</p>}>
          <AppConfigProvider>
            <Practice use={useAppConfig} />
          </AppConfigProvider>
        </Suspense>
      </Boundary>
    );
    const view = render(tree('first'));
    expect(await screen.findByText('config failed')).toBeInTheDocument();
    forgetFailedAppConfig();
    view.rerender(tree('second'));
    expect(await screen.findByText(testConfig.practice.name)).toBeInTheDocument();
  });
});
