import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Cloudflare Turnstile, both halves:
 * - `GET /turnstile/v0/api.js`: the browser widget (the product loads it from TURNSTILE_SCRIPT_URL) with Turnstile's
 *   JavaScript API — `turnstile.render(el, { sitekey, callback, 'error-callback', execution })`, `execute`, `reset`,
 *   `remove`, `getResponse` — that solves every challenge at once, invisibly, with a token `standin.<sitekey>.<random>`.
 * - `POST /turnstile/v0/siteverify`: Cloudflare's verification API (form or JSON body: secret, response, remoteip),
 *   answering like Cloudflare: success with hostname and challenge_ts for a token issued for the site key that
 *   belongs to the secret; `invalid-input-secret`, `missing-input-response`, `invalid-input-response`, and
 *   `timeout-or-duplicate` for a token already verified once (Turnstile tokens are single-use).
 */
export interface TurnstileStandIn {
  origin: string;
  /** TURNSTILE_SCRIPT_URL */
  scriptUrl: string;
  /** TURNSTILE_VERIFY_URL */
  verifyUrl: string;
  siteKey: string;
  secretKey: string;
  /** A token as the widget would give it in a browser (for API-level tests that have no browser). */
  issueToken(): string;
  /** Every siteverify call and its answer. */
  verifications: { response: string; remoteip: string | null; success: boolean; errorCodes: string[] }[];
  /** How many times the widget script was fetched (a browser on the sign-in page loads it). */
  scriptLoads: number;
  stop(): Promise<void>;
}

/** The widget: the API the patient app calls (apps/web/src/features/auth/turnstile.ts), solved without a challenge. */
function widgetScript(): string {
  return `/* Paylink rehearsal: stand-in for Cloudflare Turnstile's api.js (same JavaScript API). */
(function () {
  var widgets = {};
  var n = 0;
  function token(sitekey) {
    var a = new Uint8Array(16);
    crypto.getRandomValues(a);
    var hex = Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
    return 'standin.' + sitekey + '.' + hex;
  }
  function find(idOrEl) {
    if (typeof idOrEl === 'string') return widgets[idOrEl] || null;
    for (var k in widgets) if (widgets[k].el === idOrEl) return widgets[k];
    return null;
  }
  function solve(w) {
    setTimeout(function () {
      if (!widgets[w.id]) return;
      if (!w.opts.sitekey) {
        if (typeof w.opts['error-callback'] === 'function') w.opts['error-callback']('110100');
        return;
      }
      w.response = token(w.opts.sitekey);
      if (typeof w.opts.callback === 'function') w.opts.callback(w.response);
    }, 30);
  }
  window.turnstile = {
    render: function (el, opts) {
      var target = typeof el === 'string' ? document.querySelector(el) : el;
      var id = 'cf-chl-widget-' + (++n);
      var w = { id: id, el: target, opts: opts || {}, response: undefined };
      widgets[id] = w;
      if (target) {
        var input = document.createElement('input');
        input.type = 'hidden';
        input.name = 'cf-turnstile-response';
        input.id = id + '_response';
        target.appendChild(input);
        w.input = input;
      }
      if (w.opts.execution !== 'execute') solve(w);
      return id;
    },
    execute: function (idOrEl) {
      var w = find(idOrEl);
      if (w) solve(w);
    },
    reset: function (idOrEl) {
      var w = find(idOrEl);
      if (w) w.response = undefined;
    },
    remove: function (idOrEl) {
      var w = find(idOrEl);
      if (!w) return;
      if (w.input && w.input.parentNode) w.input.parentNode.removeChild(w.input);
      delete widgets[w.id];
    },
    getResponse: function (idOrEl) {
      var w = find(idOrEl);
      return w ? w.response : undefined;
    },
    isExpired: function () { return false; },
    ready: function (cb) { cb(); },
  };
})();
`;
}

export async function startTurnstileStandIn(
  opts: { siteKey?: string; secretKey?: string } = {},
): Promise<TurnstileStandIn> {
  const siteKey = opts.siteKey ?? `0x4AAAAAAA${randomBytes(6).toString('hex')}`;
  const secretKey = opts.secretKey ?? `0x4AAAAAAA${randomBytes(16).toString('hex')}`;
  const used = new Set<string>();
  const verifications: TurnstileStandIn['verifications'] = [];
  const state = { scriptLoads: 0 };
  const script = widgetScript();

  const verify = (secret: string, response: string) => {
    if (!secret) return ['missing-input-secret'];
    if (secret !== secretKey) return ['invalid-input-secret'];
    if (!response) return ['missing-input-response'];
    if (!response.startsWith(`standin.${siteKey}.`) || response.length > 2048) return ['invalid-input-response'];
    if (used.has(response)) return ['timeout-or-duplicate'];
    used.add(response);
    return [];
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'GET' && url.pathname === '/turnstile/v0/api.js') {
        state.scriptLoads++;
        res
          .writeHead(200, {
            'content-type': 'application/javascript; charset=utf-8',
            'cache-control': 'no-cache',
            'access-control-allow-origin': '*',
          })
          .end(script);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/turnstile/v0/siteverify') {
        const raw = Buffer.concat(chunks).toString('utf8');
        let fields: Record<string, string> = {};
        if (/json/i.test(req.headers['content-type'] ?? '')) {
          try {
            fields = JSON.parse(raw) as Record<string, string>;
          } catch {
            fields = {};
          }
        } else fields = Object.fromEntries(new URLSearchParams(raw));
        const errorCodes = verify(String(fields.secret ?? ''), String(fields.response ?? ''));
        const success = errorCodes.length === 0;
        verifications.push({
          response: String(fields.response ?? ''),
          remoteip: fields.remoteip ? String(fields.remoteip) : null,
          success,
          errorCodes,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify(
            success
              ? {
                  success: true,
                  'error-codes': [],
                  challenge_ts: new Date().toISOString(),
                  hostname: 'localhost',
                  action: '',
                  cdata: '',
                }
              : { success: false, 'error-codes': errorCodes },
          ),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    scriptUrl: `${origin}/turnstile/v0/api.js`,
    verifyUrl: `${origin}/turnstile/v0/siteverify`,
    siteKey,
    secretKey,
    issueToken: () => `standin.${siteKey}.${randomBytes(16).toString('hex')}`,
    verifications,
    get scriptLoads() {
      return state.scriptLoads;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
