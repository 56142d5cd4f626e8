import { sandboxScriptsVersion } from '../../lib/sandbox-gateway-scripts.js';
import type { Config } from '../../config.js';

/** Where the browser loads the gateway's scripts from; the page's CSP allows exactly these origins. */
export interface GatewayBrowserConfig {
  checkoutJsUrl: string;
  threeDSSdkUrl: string;
  threeDSBaseUrl: string;
}

/**
 * Elavon's published locations (demo = Converge's demo host and the 3DS UAT service; production = live), each
 * overridable by config because Elavon versions the 3DS SDK path. Sources: docs/payments.md.
 */
const CONVERGE_BROWSER_DEFAULTS: Record<'demo' | 'production', GatewayBrowserConfig> = {
  demo: {
    checkoutJsUrl: 'https://api.demo.convergepay.com/hosted-payments/Checkout.js',
    threeDSSdkUrl: 'https://uat.gw.fraud.eu.elavonaws.com/sdk-web-js/0.13.2/3ds2-web-sdk.min.js',
    threeDSBaseUrl: 'https://uat.gw.fraud.eu.elavonaws.com/3ds2',
  },
  production: {
    checkoutJsUrl: 'https://api.convergepay.com/hosted-payments/Checkout.js',
    threeDSSdkUrl: 'https://libs.fraud.elavongateway.com/sdk-web-js/1.2.0/3ds2-web-sdk.min.js',
    threeDSBaseUrl: 'https://gw.fraud.elavongateway.com/3ds2',
  },
};

export function gatewayBrowserConfig(config: Config): GatewayBrowserConfig {
  if (config.sandbox.gateway) {
    const base = config.gatewayOrigin;
    // Versioned by their text: the sandbox gateway lets browsers keep them for good (issue 30).
    const v = sandboxScriptsVersion(base);
    return {
      checkoutJsUrl: `${base}/hosted-payments/Checkout.js?v=${v}`,
      threeDSSdkUrl: `${base}/3ds2/web-sdk.js?v=${v}`,
      threeDSBaseUrl: `${base}/3ds2`,
    };
  }
  const d = CONVERGE_BROWSER_DEFAULTS[config.CONVERGE_ENV];
  return {
    checkoutJsUrl: config.CONVERGE_CHECKOUT_JS_URL ?? d.checkoutJsUrl,
    threeDSSdkUrl: config.CONVERGE_3DS_SDK_URL ?? d.threeDSSdkUrl,
    threeDSBaseUrl: config.CONVERGE_3DS_BASE_URL ?? d.threeDSBaseUrl,
  };
}

const originOf = (url: string) => new URL(url).origin;
const unique = (xs: string[]) => [...new Set(xs)];

/**
 * The origins the payment page needs in its CSP: scripts from the Checkout.js and SDK hosts; XHR to the gateway and
 * the 3DS service; frames of the 3DS service (fingerprint and challenge) plus any configured ACS origins.
 */
export function gatewayCspOrigins(config: Config): { script: string[]; connect: string[]; frame: string[] } {
  const b = gatewayBrowserConfig(config);
  const checkout = originOf(b.checkoutJsUrl);
  const sdk = originOf(b.threeDSSdkUrl);
  const threeDS = originOf(b.threeDSBaseUrl);
  const extraFrames = (config.CONVERGE_3DS_FRAME_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(originOf);
  return {
    script: unique([checkout, sdk]),
    connect: unique([checkout, threeDS]),
    frame: unique([threeDS, checkout, ...extraFrames]),
  };
}
