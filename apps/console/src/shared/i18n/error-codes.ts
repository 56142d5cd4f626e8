/**
 * The console's text for each refusal code the server can answer it with ({ error: <code>, message }, the table in
 * apps/server/src/lib/errors.ts), mounted as `errors.codes.*`. The server's sentence is English only; useErrorMessage
 * (shared/components/query-state.tsx) shows these instead and falls back to the server's sentence for a code not here.
 * Too-many answers (429) are worded from their status and retryAfterSeconds, not from here; invalid_request's text is
 * for languages other than English (in English the server's exact sentence is shown).
 */
import type { Dictionary } from './types';

export const errorCodesEn = {
  // The request and who is asking
  invalid_request: 'Some of what was sent is not valid. Check the fields and try again.',
  amount_out_of_range: 'The amount is outside the allowed range.',
  unauthorized: 'Sign in again to continue.',
  session_expired: 'Your session has ended. Sign in again.',
  invalid_credentials: 'The e-mail or password is wrong.',
  invalid_code: 'That code is not right. Check the app and try again.',
  password_reused: 'Choose a new password, different from the current one.',
  reset_link_invalid: 'This link was already used, has expired or is not valid. Ask for a new one.',
  password_change_required: 'An admin reset your password. Choose a new one to continue.',
  code_required: 'Two-factor sign-in is on: enter the code from the authenticator app.',
  forbidden: 'Your role cannot do this. Ask an admin if you need it.',
  csrf: 'This request did not come from the console. Reload the page and try again.',
  // {{consoleUrl}} comes with the answer (details.consoleUrl): PUBLIC_URL + /console
  wrong_console_address: 'This console is served at {{consoleUrl}}; open it there.',
  two_factor_enrolment_required: 'Set up two-factor sign-in to continue.',
  two_factor_locked:
    'Too many wrong codes: codes from the app no longer work for this account. Sign in with a recovery code, or ask an admin to reset your two-factor sign-in.',
  not_a_session: 'This needs a console session. Sign in to the console again.',
  not_found: 'We could not find it. It may have been removed.',
  // Staff and two-factor
  staff_exists: 'A staff user with this e-mail already exists.',
  last_admin: 'Keep at least one active admin.',
  two_factor_enabled: 'Two-factor sign-in is already on.',
  two_factor_not_started: 'Start the set-up first.',
  two_factor_not_enabled: 'Two-factor sign-in is off.',
  two_factor_required: 'Two-factor sign-in is required in production and cannot be turned off.',
  // Links and messages
  link_not_active: 'The link is no longer active (cancelled, completed or expired).',
  opted_out: 'This patient opted out of messages at this address. Copy the link or use the other channel.',
  // Payment plans: the practice's actions
  plan_not_active:
    'The plan cannot do this in its current state (waiting for the deposit, paused, cancelled or paid in full). Reload the page.',
  installment_not_open: 'This installment is no longer open (paid, cancelled or refunded). Reload the page.',
  charge_in_progress:
    'A charge of this plan is under way and its answer is not known yet. Do not charge it again: Paylink confirms it with the gateway within minutes and the plan then shows the result.',
  installment_not_paid: 'Only a paid installment can be refunded.',
  // Money: refunds, voids, the card gateway
  not_paid: 'This link has no approved payment to refund.',
  no_receipt_address: 'There is no e-mail address or phone (that accepts texts) on file to send the receipt to.',
  fully_refunded: 'This payment has already been refunded in full.',
  refund_exceeds_payment: 'The refund is more than what is left of this payment.',
  partial_refund_before_settlement:
    'This payment has not settled yet, so it can only be voided in full today. Refund the whole amount now, or part of it after the batch settles (usually the next business day).',
  refund_refused: 'The card gateway refused it. Nothing was refunded.',
  gateway_unavailable: 'The card gateway is not available right now. Nothing was refunded. Try again in a few minutes.',
  refund_outcome_unknown:
    'The card gateway did not answer, so we do not know whether the money went back. It is kept as pending: check the transaction at the gateway before trying again.',
  gateway_unknown_transaction: 'The card gateway does not know this transaction.',
  already_resolved: 'This second charge has already been given back.',
  reversal_in_progress: 'A void of this charge is already on its way: check the transaction at the gateway.',
  idempotency_key_reused: 'This request was already sent with other details. Close the dialog and start again.',
  idempotency_key_in_use: 'The same request is still being processed. Wait a moment and try again.',
  // Settings: the contract files ({{maxMb}} and {{maxPages}} are given by the contract screen)
  contract_empty: 'Choose a PDF file to upload.',
  contract_not_pdf: 'This file is not a PDF. Upload the contract as a PDF file.',
  contract_unreadable: 'This PDF could not be read. Export it again and upload the new file.',
  contract_encrypted: 'This PDF is password-protected. Upload a copy without a password.',
  contract_no_pages: 'This PDF has no pages.',
  contract_too_many_pages: 'This PDF has more than {{maxPages}} pages. Upload the contract alone, without attachments.',
  contract_active_content:
    'This PDF holds content that could run on a reader’s device, and it could not be removed. Print it to a new PDF (Print → Save as PDF) and upload that file.',
  contract_too_large: 'This file is larger than {{maxMb}} MB.',
  payload_too_large: 'This is too large to send.',
  no_upload: 'There is no uploaded contract to remove.',
  // Someone else is down
  database_unavailable: 'The database is not available right now. Try again in a moment.',
  sandbox_local_only: 'This only works in sandbox mode, from this machine.',
};

export const errorCodesEs: Dictionary<typeof errorCodesEn> = {
  invalid_request: 'Algunos de los datos enviados no son válidos. Revise los campos e inténtelo de nuevo.',
  amount_out_of_range: 'El monto está fuera del rango permitido.',
  unauthorized: 'Inicie sesión de nuevo para continuar.',
  session_expired: 'Su sesión terminó. Inicie sesión de nuevo.',
  invalid_credentials: 'El correo o la contraseña no son correctos.',
  invalid_code: 'Ese código no es correcto. Revise la aplicación e inténtelo de nuevo.',
  password_reused: 'Elija una contraseña nueva, distinta de la actual.',
  reset_link_invalid: 'Este enlace ya se usó, venció o no es válido. Pida uno nuevo.',
  password_change_required: 'Un administrador restableció su contraseña. Elija una nueva para continuar.',
  code_required: 'El acceso en dos pasos está activado: escriba el código de la aplicación de autenticación.',
  forbidden: 'Su rol no permite hacer esto. Pídaselo a un administrador si lo necesita.',
  csrf: 'Esta solicitud no vino de la consola. Recargue la página e inténtelo de nuevo.',
  wrong_console_address: 'Esta consola se abre en {{consoleUrl}}; ábrala en esa dirección.',
  two_factor_enrolment_required: 'Configure el acceso en dos pasos para continuar.',
  two_factor_locked:
    'Demasiados códigos equivocados: los códigos de la aplicación ya no sirven para esta cuenta. Inicie sesión con un código de recuperación o pida a un administrador que restablezca su acceso en dos pasos.',
  not_a_session: 'Esto necesita una sesión de la consola. Vuelva a iniciar sesión en la consola.',
  not_found: 'No lo encontramos. Puede que se haya eliminado.',
  staff_exists: 'Ya existe un usuario del personal con este correo.',
  last_admin: 'Debe quedar al menos un administrador activo.',
  two_factor_enabled: 'El acceso en dos pasos ya está activado.',
  two_factor_not_started: 'Primero inicie la configuración.',
  two_factor_not_enabled: 'El acceso en dos pasos está desactivado.',
  two_factor_required: 'El acceso en dos pasos es obligatorio en producción y no se puede desactivar.',
  link_not_active: 'El enlace ya no está activo (cancelado, completado o vencido).',
  opted_out: 'Este paciente pidió no recibir mensajes en esta dirección. Copie el enlace o use el otro canal.',
  plan_not_active:
    'El plan no permite esto en su estado actual (esperando el depósito, en pausa, cancelado o pagado por completo). Recargue la página.',
  installment_not_open: 'Esta cuota ya no está abierta (pagada, cancelada o reembolsada). Recargue la página.',
  charge_in_progress:
    'Hay un cobro de este plan en curso y aún no se conoce su respuesta. No lo vuelva a cobrar: Paylink lo confirma con la pasarela en unos minutos y el plan mostrará entonces el resultado.',
  installment_not_paid: 'Solo se puede reembolsar una cuota pagada.',
  not_paid: 'Este enlace no tiene un pago aprobado que reembolsar.',
  no_receipt_address: 'No hay un correo electrónico ni un teléfono (que acepte SMS) registrados para enviar el recibo.',
  fully_refunded: 'Este pago ya se reembolsó por completo.',
  refund_exceeds_payment: 'El reembolso es mayor que lo que queda de este pago.',
  partial_refund_before_settlement:
    'Este pago aún no se ha liquidado, así que hoy solo se puede anular completo. Reembolse todo ahora, o una parte cuando se liquide el lote (normalmente el siguiente día hábil).',
  refund_refused: 'La pasarela de tarjetas lo rechazó. No se reembolsó nada.',
  gateway_unavailable:
    'La pasarela de tarjetas no está disponible en este momento. No se reembolsó nada. Inténtelo de nuevo en unos minutos.',
  refund_outcome_unknown:
    'La pasarela de tarjetas no respondió, así que no sabemos si el dinero se devolvió. Queda como pendiente: revise la transacción en la pasarela antes de volver a intentarlo.',
  gateway_unknown_transaction: 'La pasarela de tarjetas no conoce esta transacción.',
  already_resolved: 'Este segundo cargo ya se devolvió.',
  reversal_in_progress: 'Ya hay una anulación de este cargo en curso: revise la transacción en la pasarela.',
  idempotency_key_reused: 'Esta solicitud ya se envió con otros datos. Cierre el diálogo y empiece de nuevo.',
  idempotency_key_in_use: 'La misma solicitud aún se está procesando. Espere un momento y vuelva a intentarlo.',
  contract_empty: 'Elija un archivo PDF para subir.',
  contract_not_pdf: 'Este archivo no es un PDF. Suba el contrato como archivo PDF.',
  contract_unreadable: 'No se pudo leer este PDF. Expórtelo de nuevo y suba el archivo nuevo.',
  contract_encrypted: 'Este PDF está protegido con contraseña. Suba una copia sin contraseña.',
  contract_no_pages: 'Este PDF no tiene páginas.',
  contract_too_many_pages: 'Este PDF tiene más de {{maxPages}} páginas. Suba solo el contrato, sin anexos.',
  contract_active_content:
    'Este PDF contiene elementos que podrían ejecutarse en el dispositivo de quien lo lea, y no se pudieron quitar. Imprímalo a un PDF nuevo (Imprimir → Guardar como PDF) y suba ese archivo.',
  contract_too_large: 'Este archivo supera los {{maxMb}} MB.',
  payload_too_large: 'Es demasiado grande para enviarlo.',
  no_upload: 'No hay ningún contrato subido para quitar.',
  database_unavailable: 'La base de datos no está disponible en este momento. Inténtelo de nuevo en un momento.',
  sandbox_local_only: 'Esto solo funciona en modo de pruebas, desde esta máquina.',
};
