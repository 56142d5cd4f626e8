import { createHash } from 'node:crypto';

/**
 * The sandbox gateway's browser scripts, with the same API as Converge's Checkout.js and Elavon's 3DS2 web SDK. They
 * are served from the gateway's origin and send card data only there (never to the app's API). Here, under lib, because
 * two sides need their text: the sandbox gateway serves them, and the app's browser config names them by a hash of it
 * (`?v=`, so the gateway can let browsers keep them for good; issue 30).
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

/** A short hash of both scripts' text for this origin: the `?v=` the app asks them with. */
export function sandboxScriptsVersion(origin: string): string {
  return createHash('sha256')
    .update(checkoutScript(origin))
    .update(webSdkScript(origin))
    .digest('base64url')
    .slice(0, 16);
}
