import type { Config } from '../../config.js';

/** Where the browser loads the gateway's scripts from; the page's CSP allows exactly these origins. */
export interface GatewayBrowserConfig {
  checkoutJsUrl: string;
  threeDSSdkUrl: string;
  threeDSBaseUrl: string;
}

export function gatewayBrowserConfig(config: Config): GatewayBrowserConfig {
  const base = config.gatewayOrigin;
  return {
    checkoutJsUrl: `${base}/hosted-payments/Checkout.js`,
    threeDSSdkUrl: `${base}/3ds2/web-sdk.js`,
    threeDSBaseUrl: `${base}/3ds2`,
  };
}
