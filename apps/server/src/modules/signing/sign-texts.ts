import type { SubmissionKind } from './types.js';

export type Lang = 'en' | 'es';

/** Every string of the signing pages and documents, in English and Spanish. */
const en = {
  lang: 'English',
  title: {
    invoice: 'Invoice',
    contract: 'Patient contract',
    patient_id: 'Patient identification',
    payor_id: 'Payor identification',
    payment_authorization: 'Payment authorization',
  } satisfies Record<SubmissionKind, string>,
  intro: {
    invoice: 'Review your invoice, then sign at the bottom.',
    contract: 'Read the contract to the end, then sign below the last page.',
    patient_id: 'Upload a photo or scan of the front and the back of your ID.',
    payor_id: 'Upload a photo or scan of the front and the back of the payor’s ID.',
    payment_authorization: 'Read the authorization, then sign as the payor.',
  } satisfies Record<SubmissionKind, string>,
  invoiceNumber: 'Invoice number',
  invoiceDate: 'Date',
  billedBy: 'From',
  billTo: 'Bill to',
  description: 'Description',
  amount: 'Amount',
  total: 'Total due now',
  paymentType: { 1: 'Deposit', 2: 'Partial payment' } as Record<number, string>,
  noAmount: 'Not chosen yet',
  procedureFallback: 'Surgical procedure',
  phone: 'Phone',
  email: 'E-mail',
  invoiceNote:
    'This invoice covers the amount you chose to pay now. The rest of your balance will be invoiced separately.',
  planHeading: 'Your payment plan',
  planTotal: 'Total of your quote',
  planToday: 'Today’s payment',
  planLater: 'Charged later, automatically:',
  planNote: (rest: string, days: number) =>
    `The rest of your total, ${rest}, is charged on the dates above to the card you pay the deposit with. You are told by text or e-mail ${days} days before each charge.`,
  planNothingLater: 'Nothing is left to charge after today’s payment.',
  planNoAmount: 'Choose the amount you pay today to see the charges that follow.',
  planInvoiceNote: 'This invoice covers the amount you pay now; the payment plan above is how the rest is paid.',
  authText: (p: { practice: string; patient: string; amount: string; payor: string }) => [
    `I, ${p.payor}, authorize ${p.practice} to charge ${p.amount} to the card I enter in the card form on this page as a payment for the care of ${p.patient}.`,
    'I understand that this deposit is non-refundable.',
    'I understand that the patient must be present with this card on the pre-op day, or the surgeon may cancel the procedure.',
    'I confirm that I am the cardholder or am authorized to use this card.',
  ],
  pdfLoading: 'Loading the document…',
  pdfFailed: 'The document could not be shown here.',
  openPdf: 'Open the PDF',
  jumpToSign: 'Jump to signature',
  readFullScreen: 'Read full screen',
  closeReading: 'Close full screen',
  viewLegend: 'Show the contract as',
  viewText: 'Text for this screen',
  viewPages: 'Printed pages',
  textViewNote: 'The contract’s text, sized for your screen. “Printed pages” shows the PDF you sign.',
  contractInEnglish:
    'This contract is only available in English. Ask the practice if you have any question about it before signing.',
  downloadPdf: 'Download the PDF',
  pageOf: (n: number, total: number) => `Page ${n} of ${total}`,
  signHeading: 'Sign',
  signerName: 'Full name',
  signDate: 'Date',
  methodLegend: 'How do you want to sign?',
  methodDraw: 'Draw my signature',
  methodType: 'Type my signature',
  drawButton: 'Draw signature',
  redrawButton: 'Draw again',
  drawHint: 'Sign inside the box with your finger, a stylus or the mouse.',
  padLabel: 'Signature pad. Draw your signature with a pointer; to sign with the keyboard, choose “Type my signature”.',
  clear: 'Clear',
  cancel: 'Cancel',
  useSignature: 'Use this signature',
  noSignature: 'No signature yet.',
  yourSignature: 'Your signature',
  typedLabel: 'Type your name as your signature',
  reuseTypedHint: 'You typed your signature on an earlier document.',
  reuseTyped: (name: string) => `Use my typed signature “${name}”`,
  consent:
    'By selecting “Sign document”, I agree that my electronic signature is the legal equivalent of my handwritten signature on this document.',
  fullScreen: 'Full screen',
  doneDrawing: 'Done',
  submitSign: 'Sign document',
  submitUpload: 'Submit documents',
  working: 'Saving…',
  /** The submit button's label until the page's script is ready to handle it (issue 25). */
  preparing: 'Loading…',
  front: 'Front',
  back: 'Back',
  chooseFile: (side: string) => `Choose or take a photo of the ${side.toLowerCase()}`,
  takePhoto: (side: string) => `Open the camera for the ${side.toLowerCase()}`,
  noFile: 'Nothing uploaded yet.',
  guidanceLabel: 'Before you upload',
  replaceFile: 'Replace',
  uploading: 'Uploading…',
  uploaded: (name: string) => `Uploaded: ${name}`,
  fileTypes: 'JPEG, PNG, HEIC or PDF',
  maxSize: (mb: number) => `up to ${mb} MB`,
  guidance: [
    'Do not upload the same document twice.',
    'Use legible, valid documents that have not expired.',
    'Show all four corners, without glare.',
    'Upload both the front and the back.',
  ],
  errors: {
    tooLarge: (mb: number) =>
      `This file is too large. The limit is ${mb} MB: take a new photo or choose a smaller file.`,
    wrongType: 'This file type is not accepted. Upload a JPEG, PNG, HEIC photo or a PDF.',
    unreadable: 'This file could not be read. Take a new photo or choose another file.',
    tooManyPixels:
      'This image has too many pixels (more than 40 megapixels). Take a new photo or choose a smaller one.',
    busy: 'We are processing many files right now. Wait a moment and try again.',
    encryptedPdf: 'This PDF is password-protected. Upload a PDF without a password or a photo.',
    duplicate: 'This exact file was already uploaded. Do not upload the same document twice: choose the other side.',
    missingFiles: 'Upload both the front and the back before you submit.',
    missingName: 'Enter your full name.',
    missingSignature: 'Add your signature: draw it or type it.',
    changed: 'This document changed since you opened it. Reload the page to see the current version.',
    network: 'We could not reach the server. Check your connection and try again.',
    generic: 'Something went wrong. Please try again.',
  },
  done: {
    title: 'Thank you',
    signed: 'Your document is signed. You can continue in the app.',
    uploaded: 'Your documents were received. You can continue in the app.',
  },
  refused: {
    notFound: 'This document link is not valid. Go back to the app and open the step again.',
    expired: 'The link has expired. Please contact your sales coordinator for a new link.',
    cancelled: 'The link has been cancelled. Please contact your sales coordinator for a new link.',
    completed: 'Process has been completed and Payment has been made. No further action required...',
    unavailable: 'This document is no longer available.',
  },
  pdf: {
    signaturePage: 'Signature',
    auditPage: 'Audit trail',
    signedBy: 'Signed by',
    signedAt: 'Signed at',
    method: 'Method',
    methods: { draw: 'Drawn signature', type: 'Typed signature', upload: 'Documents uploaded' },
    ip: 'IP address',
    userAgent: 'Browser',
    document: 'Document',
    submission: 'Submission',
    link: 'Link',
    originalHash: 'SHA-256 of the original document',
    fileHash: (side: string, name: string) => `SHA-256 of the ${side} file as uploaded (${name})`,
    uploadedFile: (side: string) => `ID document – ${side}`,
    idImageAlt: (side: string) => `Photo of the identity document as uploaded (${side.toLowerCase()})`,
    signatureAlt: (name: string) => `Handwritten signature of ${name}`,
    auditNote:
      'The SHA-256 digest identifies the original document exactly: any change to it produces a different value.',
  },
};

const es: typeof en = {
  lang: 'Español',
  title: {
    invoice: 'Factura',
    contract: 'Contrato del paciente',
    patient_id: 'Identificación del paciente',
    payor_id: 'Identificación del pagador',
    payment_authorization: 'Autorización de pago',
  },
  intro: {
    invoice: 'Revise su factura y firme al final.',
    contract: 'Lea el contrato hasta el final y firme debajo de la última página.',
    patient_id: 'Suba una foto o un escaneo del frente y del reverso de su identificación.',
    payor_id: 'Suba una foto o un escaneo del frente y del reverso de la identificación del pagador.',
    payment_authorization: 'Lea la autorización y firme como pagador.',
  },
  invoiceNumber: 'Número de factura',
  invoiceDate: 'Fecha',
  billedBy: 'De',
  billTo: 'Facturar a',
  description: 'Descripción',
  amount: 'Monto',
  total: 'Total a pagar ahora',
  paymentType: { 1: 'Depósito', 2: 'Pago parcial' },
  noAmount: 'Aún no elegido',
  procedureFallback: 'Procedimiento quirúrgico',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  invoiceNote: 'Esta factura cubre el monto que eligió pagar ahora. El resto de su saldo se facturará por separado.',
  planHeading: 'Su plan de pagos',
  planTotal: 'Total de su presupuesto',
  planToday: 'Pago de hoy',
  planLater: 'Se cobrará después, automáticamente:',
  planNote: (rest: string, days: number) =>
    `El resto de su total, ${rest}, se cobrará en las fechas de arriba a la tarjeta con la que pague el depósito. Le avisaremos por mensaje de texto o correo electrónico ${days} días antes de cada cobro.`,
  planNothingLater: 'No queda nada por cobrar después del pago de hoy.',
  planNoAmount: 'Elija el monto que paga hoy para ver los cobros que siguen.',
  planInvoiceNote:
    'Esta factura cubre el monto que paga ahora; el plan de pagos de arriba indica cómo se paga el resto.',
  authText: (p) => [
    `Yo, ${p.payor}, autorizo a ${p.practice} a cobrar ${p.amount} a la tarjeta que indique en el formulario de tarjeta de esta página como pago por la atención de ${p.patient}.`,
    'Entiendo que este depósito no es reembolsable.',
    'Entiendo que el paciente debe presentarse con esta tarjeta el día preoperatorio; de lo contrario, el cirujano puede cancelar el procedimiento.',
    'Confirmo que soy el titular de la tarjeta o que estoy autorizado a usarla.',
  ],
  pdfLoading: 'Cargando el documento…',
  pdfFailed: 'No se pudo mostrar el documento aquí.',
  openPdf: 'Abrir el PDF',
  jumpToSign: 'Ir a la firma',
  readFullScreen: 'Leer en pantalla completa',
  closeReading: 'Cerrar pantalla completa',
  viewLegend: 'Mostrar el contrato como',
  viewText: 'Texto para esta pantalla',
  viewPages: 'Páginas impresas',
  textViewNote: 'El texto del contrato, del tamaño de su pantalla. «Páginas impresas» muestra el PDF que firma.',
  contractInEnglish:
    'Este contrato solo está disponible en inglés. Si tiene alguna pregunta sobre el contrato, consulte al consultorio antes de firmarlo.',
  downloadPdf: 'Descargar el PDF',
  pageOf: (n, total) => `Página ${n} de ${total}`,
  signHeading: 'Firma',
  signerName: 'Nombre completo',
  signDate: 'Fecha',
  methodLegend: '¿Cómo desea firmar?',
  methodDraw: 'Dibujar mi firma',
  methodType: 'Escribir mi firma',
  drawButton: 'Dibujar la firma',
  redrawButton: 'Dibujar de nuevo',
  drawHint: 'Firme dentro del recuadro con el dedo, un lápiz táctil o el ratón.',
  padLabel: 'Recuadro de firma. Dibuje su firma con un puntero; para firmar con el teclado, elija “Escribir mi firma”.',
  clear: 'Borrar',
  cancel: 'Cancelar',
  useSignature: 'Usar esta firma',
  noSignature: 'Todavía no hay firma.',
  yourSignature: 'Su firma',
  typedLabel: 'Escriba su nombre como firma',
  reuseTypedHint: 'Escribió su firma en un documento anterior.',
  reuseTyped: (name) => `Usar mi firma escrita «${name}»`,
  consent:
    'Al seleccionar “Firmar el documento”, acepto que mi firma electrónica tiene la misma validez legal que mi firma manuscrita en este documento.',
  fullScreen: 'Pantalla completa',
  doneDrawing: 'Listo',
  submitSign: 'Firmar el documento',
  submitUpload: 'Enviar los documentos',
  working: 'Guardando…',
  preparing: 'Cargando…',
  front: 'Frente',
  back: 'Reverso',
  chooseFile: (side) => `Elegir o tomar una foto del ${side.toLowerCase()}`,
  takePhoto: (side) => `Abrir la cámara para el ${side.toLowerCase()}`,
  noFile: 'Todavía no se ha subido nada.',
  guidanceLabel: 'Antes de subir',
  replaceFile: 'Reemplazar',
  uploading: 'Subiendo…',
  uploaded: (name) => `Subido: ${name}`,
  fileTypes: 'JPEG, PNG, HEIC o PDF',
  maxSize: (mb) => `hasta ${mb} MB`,
  guidance: [
    'No suba el mismo documento dos veces.',
    'Use documentos legibles, válidos y vigentes.',
    'Muestre las cuatro esquinas, sin reflejos.',
    'Suba tanto el frente como el reverso.',
  ],
  errors: {
    tooLarge: (mb) =>
      `El archivo es demasiado grande. El límite es de ${mb} MB: tome una foto nueva o elija un archivo más pequeño.`,
    wrongType: 'Este tipo de archivo no se acepta. Suba una foto JPEG, PNG, HEIC o un PDF.',
    unreadable: 'No se pudo leer el archivo. Tome una foto nueva o elija otro archivo.',
    tooManyPixels:
      'Esta imagen tiene demasiados píxeles (más de 40 megapíxeles). Tome una foto nueva o elija una más pequeña.',
    busy: 'Estamos procesando muchos archivos en este momento. Espere un momento e inténtelo de nuevo.',
    encryptedPdf: 'Este PDF está protegido con contraseña. Suba un PDF sin contraseña o una foto.',
    duplicate: 'Este mismo archivo ya se subió. No suba el mismo documento dos veces: elija el otro lado.',
    missingFiles: 'Suba el frente y el reverso antes de enviar.',
    missingName: 'Escriba su nombre completo.',
    missingSignature: 'Agregue su firma: dibújela o escríbala.',
    changed: 'Este documento cambió desde que lo abrió. Vuelva a cargar la página para ver la versión actual.',
    network: 'No pudimos conectar con el servidor. Revise su conexión e inténtelo de nuevo.',
    generic: 'Algo salió mal. Inténtelo de nuevo.',
  },
  done: {
    title: 'Gracias',
    signed: 'Su documento está firmado. Puede continuar en la aplicación.',
    uploaded: 'Recibimos sus documentos. Puede continuar en la aplicación.',
  },
  refused: {
    notFound: 'Este enlace del documento no es válido. Vuelva a la aplicación y abra el paso de nuevo.',
    expired: 'El enlace ha vencido. Comuníquese con su coordinador de ventas para obtener un enlace nuevo.',
    cancelled: 'El enlace fue cancelado. Comuníquese con su coordinador de ventas para obtener un enlace nuevo.',
    completed: 'El proceso se completó y el pago ya se realizó. No se requiere ninguna otra acción...',
    unavailable: 'Este documento ya no está disponible.',
  },
  pdf: {
    signaturePage: 'Firma',
    auditPage: 'Registro de auditoría',
    signedBy: 'Firmado por',
    signedAt: 'Fecha y hora de la firma',
    method: 'Método',
    methods: { draw: 'Firma dibujada', type: 'Firma escrita', upload: 'Documentos subidos' },
    ip: 'Dirección IP',
    userAgent: 'Navegador',
    document: 'Documento',
    submission: 'Envío',
    link: 'Enlace',
    originalHash: 'SHA-256 del documento original',
    fileHash: (side, name) => `SHA-256 del archivo del ${side.toLowerCase()} tal como se subió (${name})`,
    uploadedFile: (side) => `Documento de identidad – ${side.toLowerCase()}`,
    idImageAlt: (side) => `Foto del documento de identidad tal como se subió (${side.toLowerCase()})`,
    signatureAlt: (name) => `Firma manuscrita de ${name}`,
    auditNote:
      'El resumen SHA-256 identifica exactamente el documento original: cualquier cambio produce un valor distinto.',
  },
};

export const TEXTS: Record<Lang, typeof en> = { en, es };
export type Texts = typeof en;

/** `?lng=` first (the app appends its language), then Accept-Language, then English. */
export function pickLang(query: unknown, acceptLanguage: string | undefined): Lang {
  const q = typeof query === 'string' ? query.toLowerCase().slice(0, 2) : '';
  if (q === 'es' || q === 'en') return q;
  const langs = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const qv = params.find((p) => p.trim().startsWith('q='));
      return { tag: (tag ?? '').toLowerCase(), q: qv ? Number(qv.trim().slice(2)) || 0 : 1 };
    })
    .filter((l) => l.tag)
    .sort((a, b) => b.q - a.q);
  for (const l of langs) {
    if (l.tag.startsWith('es')) return 'es';
    if (l.tag.startsWith('en')) return 'en';
  }
  return 'en';
}

export function formatUsd(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

export function formatDate(d: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-US' : 'en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}
