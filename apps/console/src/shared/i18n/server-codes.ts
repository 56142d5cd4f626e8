/**
 * Codes the server sends that the console puts in the reader's language (issue 29, item 11); mounted as `codes.*`.
 * The server sends codes (a timeline note's kind and value, a script's purpose, a gateway's answer) rather than
 * English sentences; the raw code stays on screen, secondary, for support. A code missing here is shown raw.
 */
export const serverCodesEn = {
  /** The link's language, named in the reader's language. */
  language: { en: 'English', es: 'Spanish' },
  /** A timeline note, by the note's kind (noteKind). */
  note: {
    deliveryError: 'Provider error {{code}}',
    transaction: 'Transaction {{id}}',
  },
  /** What failed on the payment page (the page's failure kind). */
  failure: {
    declined: 'Declined by the card issuer',
    error: 'Gateway error',
    threeDSFailed: '3-D Secure did not pass',
    unavailable: 'The payment service could not be reached',
  },
  /** Why a patient's sign-in failed. */
  signIn: {
    'wrong-code': 'Wrong code',
    expired: 'Code or link expired',
    used: 'Already used',
    locked: 'Too many wrong codes',
    'no-code': 'No code was sent',
    'unknown-token': 'Unknown sign-in link',
    'other-link': 'Sign-in link of another link',
  },
  /** The card gateway's answers (ssl_result_message), by the answer in capitals with other characters as "_". */
  gateway: {
    DECLINED: 'Declined',
    DECLINED_CVV2: 'Declined: the security code (CVV) did not match',
    DECLINED_NSF: 'Declined: insufficient funds',
    DECLINED_3DS_AUTHENTICATION_FAILED: 'Declined: 3-D Secure authentication failed',
    EXPIRED_CARD: 'Expired card',
    CALL_AUTH_CENTER: 'Declined: the issuer asks for a call',
    PICK_UP_CARD: 'Declined: the issuer asks to keep the card',
    INVALID_CARD: 'Invalid card',
    SERIAL_NUM_NOT_FOUND: 'Transaction not found',
  },
  /** Why each script of the payment page is there (PCI DSS 6.4.3 justification), by its purpose. */
  scriptPurpose: {
    entry: 'Paylink patient app: entry module (React, router, sign-in)',
    preload: 'Paylink patient app: module preloaded with the entry',
    stylesheet: 'Paylink patient app: stylesheet of a page',
    lazy: 'Paylink patient app: code of a page or feature, imported when the patient reaches it',
    checkout:
      'Converge Checkout.js: sends the card number and CVC from the browser to the gateway; our server never sees them. Versioned by Elavon, so pinned by origin in the CSP and watched by the tamper check.',
    threeDS: "Elavon 3-D Secure web SDK: the card issuer's authentication (liability shift).",
    captcha: 'Cloudflare Turnstile: captcha before a sign-in code is sent (not on the payment step).',
  },
};

export const serverCodesEs: typeof serverCodesEn = {
  language: { en: 'Inglés', es: 'Español' },
  note: {
    deliveryError: 'Error del proveedor {{code}}',
    transaction: 'Transacción {{id}}',
  },
  failure: {
    declined: 'Rechazado por el emisor de la tarjeta',
    error: 'Error de la pasarela',
    threeDSFailed: '3-D Secure no se superó',
    unavailable: 'No se pudo contactar el servicio de pago',
  },
  signIn: {
    'wrong-code': 'Código incorrecto',
    expired: 'Código o enlace vencido',
    used: 'Ya usado',
    locked: 'Demasiados códigos incorrectos',
    'no-code': 'No se envió ningún código',
    'unknown-token': 'Enlace de acceso desconocido',
    'other-link': 'Enlace de acceso de otro enlace',
  },
  gateway: {
    DECLINED: 'Rechazado',
    DECLINED_CVV2: 'Rechazado: el código de seguridad (CVV) no coincide',
    DECLINED_NSF: 'Rechazado: fondos insuficientes',
    DECLINED_3DS_AUTHENTICATION_FAILED: 'Rechazado: falló la autenticación 3-D Secure',
    EXPIRED_CARD: 'Tarjeta vencida',
    CALL_AUTH_CENTER: 'Rechazado: el emisor pide una llamada',
    PICK_UP_CARD: 'Rechazado: el emisor pide retener la tarjeta',
    INVALID_CARD: 'Tarjeta no válida',
    SERIAL_NUM_NOT_FOUND: 'Transacción no encontrada',
  },
  scriptPurpose: {
    entry: 'App del paciente de Paylink: módulo de entrada (React, rutas, inicio de sesión)',
    preload: 'App del paciente de Paylink: módulo precargado con la entrada',
    stylesheet: 'App del paciente de Paylink: hoja de estilos de una página',
    lazy: 'App del paciente de Paylink: código de una página o función, importado cuando el paciente llega a ella',
    checkout:
      'Converge Checkout.js: envía el número de tarjeta y el CVC desde el navegador a la pasarela; nuestro servidor nunca los ve. Lo versiona Elavon, por eso se fija por origen en la CSP y lo vigila la comprobación de manipulación.',
    threeDS:
      'SDK web de 3-D Secure de Elavon: la autenticación del emisor de la tarjeta (traslado de responsabilidad).',
    captcha: 'Cloudflare Turnstile: captcha antes de enviar un código de acceso (no en el paso de pago).',
  },
};
