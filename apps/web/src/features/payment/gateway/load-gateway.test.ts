import { afterEach, describe, expect, it } from 'vitest';
import { fakeGateway } from '../../../test/fake-gateway';
import { GatewayLoadError, loadGateway } from './load-gateway';

const urls = {
  checkoutJsUrl: 'http://gw.test/hosted-payments/Checkout.js',
  threeDSSdkUrl: 'http://gw.test/3ds2/web-sdk.js',
};
const scripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script[data-gateway-src]')];

afterEach(() => {
  scripts().forEach((s) => s.remove());
  const w = window as unknown as Record<string, unknown>;
  delete w.ConvergeEmbeddedPayment;
  delete w.Elavon3DSWebSDK;
});

describe('loadGateway', () => {
  it('adds both script tags and resolves with the globals once they exist', async () => {
    const loading = loadGateway(urls);
    expect(scripts().map((s) => s.src)).toEqual([urls.checkoutJsUrl, urls.threeDSSdkUrl]);
    expect(loadGateway(urls)).toBe(loading);
    const gw = fakeGateway();
    Object.assign(window, { ConvergeEmbeddedPayment: gw.ConvergeEmbeddedPayment });
    scripts().forEach((s) => s.dispatchEvent(new Event('load')));
    // The SDK defines its global a little after its load event.
    setTimeout(() => Object.assign(window, { Elavon3DSWebSDK: gw.Elavon3DSWebSDK }), 20);
    const globals = await loading;
    expect(globals.ConvergeEmbeddedPayment).toBe(gw.ConvergeEmbeddedPayment);
    expect(globals.Elavon3DSWebSDK).toBe(gw.Elavon3DSWebSDK);
  });

  it('rejects when a script fails and tries again on the next call', async () => {
    const other = { ...urls, checkoutJsUrl: 'http://gw.test/other/Checkout.js' };
    const first = loadGateway(other);
    scripts()[0]!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toBeInstanceOf(GatewayLoadError);
    const second = loadGateway(other);
    expect(second).not.toBe(first);
    second.catch(() => undefined);
  });
});
