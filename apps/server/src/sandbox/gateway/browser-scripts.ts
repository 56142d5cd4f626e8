import { markup, raw } from '../../lib/escape.js';
/**
 * The sandbox's browser scripts, with the same API as Converge's Checkout.js and Elavon's 3DS2 web SDK. They are
 * served from the gateway's origin and send card data only there (never to the app's API).
 */

/** `ConvergeEmbeddedPayment.getEFSToken(data, callbacks)` and `.pay(paymentData, callbacks)`. */
export function checkoutScript(origin: string): string {
  return `/* Paylink sandbox gateway: Checkout.js stand-in (API of Converge's hosted-payments Checkout.js). */
(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};
  var NETWORK_ERROR = { errorCode: '4017', errorName: 'Time-Out', errorMessage: 'The payment service could not be reached. Please try again.' };
  function post(path, body) {
    return fetch(ORIGIN + path, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return NETWORK_ERROR; });
    });
  }
  function call(callbacks, name, arg) {
    if (callbacks && typeof callbacks[name] === 'function') callbacks[name](arg);
  }
  window.ConvergeEmbeddedPayment = {
    getEFSToken: function (data, callbacks) {
      post('/hosted-payments/efs_token', { ssl_txn_auth_token: data && data.ssl_txn_auth_token }).then(
        function (r) {
          if (r.errorCode) call(callbacks, 'onError', r);
          else call(callbacks, 'onThreeDSecure2', r);
        },
        function () { call(callbacks, 'onError', NETWORK_ERROR); }
      );
    },
    pay: function (paymentData, callbacks) {
      post('/hosted-payments/process', paymentData).then(
        function (r) {
          if (r.errorCode) call(callbacks, 'onError', r);
          else if (r.ssl_result === '0') call(callbacks, 'onApproval', r);
          else call(callbacks, 'onDeclined', r);
        },
        function () { call(callbacks, 'onError', NETWORK_ERROR); }
      );
    }
  };
})();
`;
}

/** `new Elavon3DSWebSDK({ baseUrl, token }).web3dsFlow(request)` → Promise; challenges open a 390×400 lightbox. */
export function webSdkScript(origin: string): string {
  return `/* Paylink sandbox gateway: Elavon 3DS2 web SDK stand-in. */
(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};
  var SIZES = { '01': [250, 400], '02': [390, 400], '03': [500, 600], '04': [600, 400], '05': ['100%', '100%'] };
  function Elavon3DSWebSDK(options) {
    options = options || {};
    this.baseUrl = String(options.baseUrl || ORIGIN + '/3ds2').replace(/\\/+$/, '');
    this.token = options.token;
    this.origin = new URL(this.baseUrl).origin;
  }
  Elavon3DSWebSDK.prototype._fetch = function (path, init) {
    init = init || {};
    init.mode = 'cors';
    init.credentials = 'omit';
    init.headers = Object.assign({ authorization: 'Bearer ' + this.token }, init.headers || {});
    return fetch(this.baseUrl + path, init).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) throw j;
        return j;
      });
    });
  };
  Elavon3DSWebSDK.prototype.web3dsFlow = function (request) {
    var self = this;
    return self
      ._fetch('/authenticate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request || {})
      })
      .then(function (res) {
        if (res.transStatus !== 'C') return res;
        return self._challenge(res, (request && request.challengeWindowSize) || '02');
      });
  };
  Elavon3DSWebSDK.prototype._challenge = function (res, windowSize) {
    var self = this;
    var size = SIZES[windowSize] || SIZES['02'];
    return new Promise(function (resolve, reject) {
      var previousFocus = document.activeElement;
      var overlay = document.createElement('div');
      overlay.id = 'elavon-3ds-lightbox';
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      var es = /^es/i.test(document.documentElement.lang || '');
      overlay.setAttribute('aria-label', es ? 'Autenticación de la tarjeta' : 'Card authentication');
      overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483000;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center;';
      var frame = document.createElement('iframe');
      // The issuer's page speaks the payment page's language, as a real ACS does from the browser's language.
      frame.src = res.challengeUrl + (res.challengeUrl.indexOf('?') < 0 ? '?' : '&') + 'lng=' + (es ? 'es' : 'en');
      frame.title = es ? 'Autenticación 3-D Secure' : '3-D Secure authentication';
      frame.width = String(size[0]);
      frame.height = String(size[1]);
      frame.style.cssText = 'border:0;background:#fff;max-width:100%;border-radius:4px;';
      overlay.appendChild(frame);
      // A modal lightbox: the page behind it is inert while it is open (Tab and screen readers stay in it).
      var inerted = [];
      Array.prototype.forEach.call(document.body.children, function (el) {
        if (el !== overlay && !el.inert) {
          el.inert = true;
          inerted.push(el);
        }
      });
      document.body.appendChild(overlay);
      // Focus the frame at once, and its page once loaded (the issuer's page focuses its first control).
      frame.focus();
      frame.addEventListener('load', function () {
        frame.focus();
        if (frame.contentWindow) frame.contentWindow.focus();
      });
      function done() {
        window.removeEventListener('message', onMessage);
        inerted.forEach(function (el) { el.inert = false; });
        if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
        // Back to what had focus, when it still can take it (the page may have disabled or removed it).
        if (previousFocus && previousFocus !== document.body && previousFocus.isConnected && !previousFocus.disabled) {
          previousFocus.focus();
        }
      }
      function onMessage(event) {
        var d = event.data;
        if (event.origin !== self.origin || !d || d.type !== 'elavon-3ds-challenge-complete') return;
        if (d.threeDSServerTransID !== res.threeDSServerTransID) return;
        self._fetch('/result/' + encodeURIComponent(res.threeDSServerTransID)).then(
          function (final) { done(); resolve(final); },
          function (err) { done(); reject(err); }
        );
      }
      window.addEventListener('message', onMessage);
    });
  };
  window.Elavon3DSWebSDK = Elavon3DSWebSDK;
})();
`;
}

const PAGE_STYLE = `body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:16px;color:#1b1b1b}
h1{font-size:18px;margin:0 0 8px}p{margin:0 0 10px}.es{color:#555;font-size:13px}
.row{display:flex;gap:8px;margin-top:16px;flex-wrap:wrap}
button{font:inherit;padding:10px 14px;border-radius:4px;border:1px solid #1a4f8b;cursor:pointer}
button.ok{background:#1a4f8b;color:#fff}button.fail{background:#fff;color:#8b1a1a;border-color:#8b1a1a}
button:focus-visible{outline:3px solid #1b1b1b;outline-offset:2px}`;

export type ChallengeLang = 'en' | 'es';
export type ChallengeDone = 'finished' | 'authenticated' | 'failed';

const CHALLENGE_TEXTS = {
  en: {
    title: '3-D Secure authentication',
    heading: "Sandbox Bank: verify it's you",
    confirm: (amount: string, last4: string) =>
      markup`Confirm the payment of <strong>${amount}</strong> with the card ending in <strong>${last4}</strong>.`,
    note: "This is the sandbox issuer's challenge: a real bank would ask for a one-time code here.",
    authenticate: 'Authenticate',
    fail: 'Fail authentication',
    back: 'You can return to the payment.',
    done: { finished: 'Authentication finished.', authenticated: 'Authenticated.', failed: 'Authentication failed.' },
  },
  es: {
    title: 'Autenticación 3-D Secure',
    heading: 'Banco de prueba: confirme que es usted',
    confirm: (amount: string, last4: string) =>
      markup`Confirme el pago de <strong>${amount}</strong> con la tarjeta terminada en <strong>${last4}</strong>.`,
    note: 'Esta es la verificación del emisor de prueba: un banco real le pediría aquí un código de un solo uso.',
    authenticate: 'Autenticar',
    fail: 'Fallar la autenticación',
    back: 'Puede volver al pago.',
    done: { finished: 'Autenticación terminada.', authenticated: 'Autenticado.', failed: 'La autenticación falló.' },
  },
} as const;

/** The "issuer's" challenge page shown inside the lightbox, in one language (the payment page's). */
export function challengePage(opts: {
  id: string;
  last4: string;
  amount: string;
  done?: ChallengeDone;
  lang?: ChallengeLang;
}): string {
  const lang = opts.lang ?? 'en';
  const x = CHALLENGE_TEXTS[lang];
  const body = opts.done
    ? markup`<h1>${x.done[opts.done]}</h1><p>${x.back}</p>
<script>parent.postMessage({ type: 'elavon-3ds-challenge-complete', threeDSServerTransID: ${raw(JSON.stringify(opts.id).replace(/</g, '\\u003c'))} }, '*');</script>`
    : markup`<h1>${x.heading}</h1>
<p>${x.confirm(opts.amount, opts.last4)}</p>
<p>${x.note}</p>
<form method="post" class="row">
<input type="hidden" name="lng" value="${lang}">
<button class="ok" type="submit" name="action" value="authenticate" autofocus>${x.authenticate}</button>
<button class="fail" type="submit" name="action" value="fail">${x.fail}</button>
</form>
<script>
/* Browsers ignore autofocus in another site's frame, and a frame without focus cannot take it: once the payment page
   focuses this frame, its first button takes focus. */
var first = document.querySelector('[autofocus]');
function focusFirst() { if (first && (!document.activeElement || document.activeElement === document.body)) first.focus(); }
window.addEventListener('focus', focusFirst);
focusFirst();
</script>`;
  return markup`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${x.title}</title><style>${raw(PAGE_STYLE)}</style></head><body><main>${body}</main></body></html>`.toString();
}
