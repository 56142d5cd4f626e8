import { markup, raw } from '../../lib/escape.js';

/** Served from the gateway's origin; the text lives in lib (the app's browser config hashes it). */
export { checkoutScript, webSdkScript } from '../../lib/sandbox-gateway-scripts.js';

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
