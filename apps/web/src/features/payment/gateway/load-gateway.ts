import type { GatewayGlobals } from './types';

export interface GatewayScriptUrls {
  checkoutJsUrl: string;
  threeDSSdkUrl: string;
}

export class GatewayLoadError extends Error {
  override name = 'GatewayLoadError';
}

let pending: { key: string; promise: Promise<GatewayGlobals> } | null = null;

function loadScript(src: string, doc: Document): Promise<void> {
  const existing = doc.querySelector<HTMLScriptElement>(`script[data-gateway-src="${CSS.escape(src)}"]`);
  if (existing?.dataset.loaded === 'true') return Promise.resolve();
  existing?.remove();
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.gatewaySrc = src;
    script.onload = () => {
      script.dataset.loaded = 'true';
      resolve();
    };
    script.onerror = () => {
      script.remove();
      reject(new GatewayLoadError(`Could not load ${src}`));
    };
    doc.head.appendChild(script);
  });
}

function readGlobals(win: Window): GatewayGlobals | null {
  const w = win as unknown as Partial<GatewayGlobals>;
  return w.ConvergeEmbeddedPayment && w.Elavon3DSWebSDK
    ? { ConvergeEmbeddedPayment: w.ConvergeEmbeddedPayment, Elavon3DSWebSDK: w.Elavon3DSWebSDK }
    : null;
}

/** Resolves once both globals exist; the scripts may define them after their load event. */
function waitForGlobals(win: Window, timeoutMs: number): Promise<GatewayGlobals> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const globals = readGlobals(win);
      if (globals) return resolve(globals);
      if (Date.now() - started > timeoutMs) return reject(new GatewayLoadError('The payment scripts did not start'));
      win.setTimeout(check, 50);
    };
    check();
  });
}

/**
 * Loads Checkout.js and the 3-D Secure SDK from the URLs in /api/config (script tags, once per page) and resolves
 * with their globals. A failure is not cached, so the next PAY NOW tries again.
 */
export function loadGateway(
  urls: GatewayScriptUrls,
  opts: { win?: Window; timeoutMs?: number } = {},
): Promise<GatewayGlobals> {
  const win = opts.win ?? window;
  const key = `${urls.checkoutJsUrl} ${urls.threeDSSdkUrl}`;
  if (pending?.key === key) return pending.promise;
  const promise = Promise.all([
    loadScript(urls.checkoutJsUrl, win.document),
    loadScript(urls.threeDSSdkUrl, win.document),
  ]).then(() => waitForGlobals(win, opts.timeoutMs ?? 15_000));
  pending = { key, promise };
  promise.catch(() => {
    if (pending?.promise === promise) pending = null;
  });
  return promise;
}
