import { act, render } from '@testing-library/react';
import { I18nProvider } from '../i18n';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppConfigProvider } from '../lib/app-config';
import { SIGN_ORIGIN, testConfig } from '../test/document-harness';
import { createTestI18n } from '../test/i18n';
import { DocumentFrame } from './document-frame';

/** A phone-sized or a wide window, as matchMedia reports it. */
function viewport(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

async function renderFrame() {
  const i18n = await createTestI18n('en');
  const view = render(
    <I18nProvider i18n={i18n}>
      <AppConfigProvider value={testConfig}>
        <DocumentFrame documentUrl={`${SIGN_ORIGIN}/s/token`} title="Patient contract to read and sign" height={575} />
      </AppConfigProvider>
    </I18nProvider>,
  );
  const wrap = view.container.querySelector<HTMLDivElement>('.document-frame-wrap')!;
  const frame = view.container.querySelector('iframe')!;
  const post = (data: unknown, origin = SIGN_ORIGIN, source: Window | null = frame.contentWindow) =>
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    });
  return { wrap, post };
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('document-overlay-open');
});

describe('DocumentFrame layout on phones (issue 16, item 1)', () => {
  it('takes the height its page reports on a phone, so the page is the only scroll', async () => {
    viewport(true);
    const { wrap, post } = await renderFrame();
    expect(wrap.style.height).toBe('575px');
    await post({ action: 'frame-height', height: 2400 });
    expect(wrap.style.height).toBe('2400px');
  });

  it('keeps the spec height on wide screens, and ignores other origins and windows', async () => {
    viewport(false);
    const wide = await renderFrame();
    await wide.post({ action: 'frame-height', height: 2400 });
    expect(wide.wrap.style.height).toBe('575px');
    wide.wrap.parentElement!.remove();

    viewport(true);
    const { wrap, post } = await renderFrame();
    await post({ action: 'frame-height', height: 2400 }, 'http://evil.test');
    await post({ action: 'frame-height', height: 2400 }, SIGN_ORIGIN, window);
    await post({ action: 'overlay', on: true }, 'http://evil.test');
    expect(wrap.style.height).toBe('575px');
    expect(wrap.classList.contains('document-frame-overlay')).toBe(false);
  });

  it('covers the screen while the page asks (signature pad, reading mode) and locks the page behind', async () => {
    viewport(true);
    const { wrap, post } = await renderFrame();
    await post({ action: 'overlay', on: true });
    expect(wrap.classList.contains('document-frame-overlay')).toBe(true);
    expect(document.documentElement.classList.contains('document-overlay-open')).toBe(true);
    await post({ action: 'overlay', on: false });
    expect(wrap.classList.contains('document-frame-overlay')).toBe(false);
    expect(document.documentElement.classList.contains('document-overlay-open')).toBe(false);
  });
});
