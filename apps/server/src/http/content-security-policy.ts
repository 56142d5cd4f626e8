import type { Config } from '../config.js';
import { captchaScriptUrl } from '../providers/captcha/browser-config.js';
import { gatewayCspOrigins } from '../providers/gateway/browser-config.js';
import type { ScriptInventory } from './script-inventory.js';

export type CspDirectives = Record<string, string[]>;

export const CSP_REPORT_PATH = '/api/csp-report';
const CSP_REPORT_GROUP = 'csp-endpoint';

/**
 * The Content-Security-Policy of the patient app, the payment page included (PCI DSS 6.4.3, issue 11): scripts from
 * our origin, the inline scripts of the script inventory by hash (the SRI import map), the gateway's Checkout.js and
 * 3-D Secure SDK origins and, when the real captcha is on, Turnstile's widget origin (TURNSTILE_SCRIPT_URL); nothing else. Violations are
 * reported to CSP_REPORT_PATH. The complete list (no implicit defaults), so the tamper check can compare the header
 * a browser receives with it directive by directive.
 */
export function appCspDirectives(config: Config, inventory: ScriptInventory | null): CspDirectives {
  const gateway = gatewayCspOrigins(config);
  const captchaScript = captchaScriptUrl(config);
  // Turnstile's script renders its challenge in a frame from the same origin.
  const captcha = captchaScript ? [new URL(captchaScript).origin] : [];
  const inline = (inventory?.inlineScripts ?? []).map((s) => s.cspHash);
  const reportUri = `${config.publicUrl}${CSP_REPORT_PATH}`;
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...inline, ...gateway.script, ...captcha],
    'script-src-attr': ["'none'"],
    'connect-src': ["'self'", ...gateway.connect],
    'frame-src': ["'self'", config.signOrigin, ...gateway.frame, ...captcha],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'https:', 'data:'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // Only on an https deployment: on plain-http sandbox origins it would send the page's own requests to https.
    ...(config.publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
    'report-uri': [reportUri],
    'report-to': [CSP_REPORT_GROUP],
  };
}

/** `Reporting-Endpoints` header value naming the CSP report group. */
export const reportingEndpoints = (config: Config) => `${CSP_REPORT_GROUP}="${config.publicUrl}${CSP_REPORT_PATH}"`;

export function serializeCsp(d: CspDirectives): string {
  return Object.entries(d)
    .map(([k, v]) => [k, ...v].join(' '))
    .join('; ');
}

export function parseCsp(header: string): CspDirectives {
  const out: CspDirectives = {};
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = values.sort();
  }
  return out;
}

/** Directives whose sources differ between two policies (added, removed or changed). */
export function cspDifferences(expected: CspDirectives, actual: CspDirectives): string[] {
  const diffs: string[] = [];
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const n of names) {
    const e = [...(expected[n] ?? [])].sort().join(' ');
    const a = [...(actual[n] ?? [])].sort().join(' ');
    if (!(n in actual)) diffs.push(`${n} is missing (expected "${e}")`);
    else if (!(n in expected)) diffs.push(`${n} "${a}" is not in the policy`);
    else if (e !== a) diffs.push(`${n} is "${a}", expected "${e}"`);
  }
  return diffs;
}
