import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The page's metrics go in one request when the page is hidden (issue 30), each with the route it was measured on;
 * the body is what POST /api/vitals accepts.
 */
type Report = (m: { name: string; value: number; rating?: string; id?: string; navigationType?: string }) => void;
const reporters: Record<string, Report> = {};
vi.mock('web-vitals', () => ({
  onCLS: (f: Report) => (reporters.CLS = f),
  onFCP: (f: Report) => (reporters.FCP = f),
  onINP: (f: Report) => (reporters.INP = f),
  onLCP: (f: Report) => (reporters.LCP = f),
  onTTFB: (f: Report) => (reporters.TTFB = f),
}));

function hide() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

describe('web vitals', () => {
  it("sends a page's metrics in one keepalive request when it is hidden, with the route each was measured on", async () => {
    const { vitalsBodySchema } = await import('@paylink/shared');
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('requestIdleCallback', (f: () => void) => f());
    const { startVitals } = await import('./vitals');
    startVitals();
    await vi.waitFor(() => expect(reporters.TTFB).toBeDefined());
    window.history.pushState({}, '', '/auth?id=abc');
    reporters.TTFB!({ name: 'TTFB', value: 80.12345, navigationType: 'navigate' });
    reporters.FCP!({ name: 'FCP', value: 900, rating: 'good' });
    window.history.pushState({}, '', '/patientinfo');
    reporters.LCP!({ name: 'LCP', value: 1200 });
    expect(fetch).not.toHaveBeenCalled();

    hide();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/vitals');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
    const body = JSON.parse(String(init!.body));
    expect(body.map((m: { name: string; route: string; value: number }) => [m.name, m.route, m.value])).toEqual([
      ['TTFB', '/auth', 80.123],
      ['FCP', '/auth', 900],
      ['LCP', '/patientinfo', 1200],
    ]);
    expect(vitalsBodySchema.safeParse(body).success).toBe(true);

    // What web-vitals reports once the page is hidden goes too, and nothing twice.
    reporters.CLS!({ name: 'CLS', value: 0.01 });
    await Promise.resolve();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(JSON.parse(String(fetch.mock.calls[1]![1]!.body))).toMatchObject([{ name: 'CLS', route: '/patientinfo' }]);
    window.dispatchEvent(new Event('pagehide'));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
