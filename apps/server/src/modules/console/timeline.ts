import type { TimelineEntry } from '@paylink/shared';
import { cardBrandName, stepKeyByRoute } from '@paylink/shared';

const STEP_NAMES: Record<string, { en: string; es: string }> = {
  patientInfo: { en: 'Patient information', es: 'Información del paciente' },
  invoice: { en: 'Invoice', es: 'Factura' },
  patientId: { en: 'Patient ID', es: 'Identificación del paciente' },
  payorId: { en: 'Payor ID', es: 'Identificación del pagador' },
  contract: { en: 'Contract', es: 'Contrato' },
  payment: { en: 'Payment authorization', es: 'Autorización de pago' },
  confirmation: { en: 'Confirmation', es: 'Confirmación' },
};
const DOC_NAMES: Record<string, { en: string; es: string }> = {
  invoice: { en: 'invoice', es: 'factura' },
  contract: { en: 'contract', es: 'contrato' },
  patient_id: { en: "patient's ID", es: 'identificación del paciente' },
  payor_id: { en: "payor's ID", es: 'identificación del pagador' },
  payment_authorization: { en: 'payment authorization', es: 'autorización de pago' },
};

export interface AuditRowForTimeline {
  id: string | number;
  at: Date | string;
  actor_type: 'link' | 'staff' | 'system';
  actor_id: string | null;
  action: string;
  details: Record<string, unknown> | null;
  staff_name: string | null;
  staff_email: string | null;
  /** The address the action came from (the agreement's acceptance names it). */
  ip?: string | null;
  /** For a send or a reminder: its message's delivery status now (outbox_message), when known. */
  delivery_status?: string | null;
}

const money = (cents: unknown) =>
  typeof cents === 'number' ? `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}` : '';

type Text = { en: string; es: string };

/** A card brand code in the audit details as its name ("Visa"). */
const brand = (code: unknown) => cardBrandName(String(code));

/** Delivery statuses in words (message.delivery rows; the status of a send or reminder). */
const DELIVERY: Record<string, Text> = {
  queued: { en: 'queued', es: 'en cola' },
  sent: { en: 'sent to the carrier', es: 'enviado al operador' },
  delivered: { en: 'delivered', es: 'entregado' },
  undelivered: { en: 'not delivered', es: 'no entregado' },
  failed: { en: 'not sent (failed)', es: 'no enviado (falló)' },
  accepted: { en: 'accepted by the mail server', es: 'aceptado por el servidor de correo' },
  refused: { en: 'refused by the mail server', es: 'rechazado por el servidor de correo' },
};
type Category = TimelineEntry['category'];
type NoteKind = TimelineEntry['noteKind'];

/** One audit row in plain language (both languages) for the link detail's timeline. */
export function describeEvent(row: AuditRowForTimeline): TimelineEntry {
  const d = (row.details ?? {}) as Record<string, unknown>;
  const reason = typeof d.reason === 'string' ? d.reason : null;
  const step = typeof d.routePath === 'string' ? STEP_NAMES[stepKeyByRoute[d.routePath] ?? ''] : undefined;
  const doc = typeof d.kind === 'string' ? DOC_NAMES[d.kind] : undefined;
  const say = (
    category: Category,
    en: string,
    es: string,
    note: string | null = reason,
    noteKind: NoteKind = 'text',
  ): [Category, Text, string | null, NoteKind] => [category, { en, es }, note, noteKind];
  let out: [Category, Text, string | null, NoteKind];
  switch (row.action) {
    case 'link.created':
      out = say('link', 'Created the link', 'Creó el enlace');
      break;
    case 'link.sent':
    case 'link.resent':
      out = say(
        'message',
        `Sent the link by ${d.channel === 'email' ? 'e-mail' : 'SMS'}`,
        `Envió el enlace por ${d.channel === 'email' ? 'correo electrónico' : 'SMS'}`,
      );
      break;
    case 'message.delivery': {
      const what =
        d.kind === 'link-reminder'
          ? ['The reminder', 'El recordatorio']
          : d.kind === 'link-send'
            ? ['The link message', 'El mensaje con el enlace']
            : ['A message', 'Un mensaje'];
      const st = DELIVERY[String(d.status)] ?? { en: String(d.status), es: String(d.status) };
      out = say(
        'message',
        `${what[0]} was ${st.en}`,
        `${what[1]}: ${st.es}`,
        typeof d.errorCode === 'string' ? d.errorCode : null,
        'deliveryError',
      );
      break;
    }
    case 'link.reminded': {
      // No step rows yet: the patient has not confirmed their details, which is what the reminder asked for.
      const left = STEP_NAMES[typeof d.step === 'string' ? (stepKeyByRoute[d.step] ?? '') : 'patientInfo'];
      const by = d.channel === 'email' ? ['e-mail', 'correo electrónico'] : ['SMS', 'SMS'];
      out = say(
        'message',
        `Sent a reminder by ${by[0]}${left ? ` (next step: ${left.en})` : ''}`,
        `Envió un recordatorio por ${by[1]}${left ? ` (siguiente paso: ${left.es})` : ''}`,
      );
      break;
    }
    case 'link.reminders_on':
      out = say('staff_action', 'Turned reminders on', 'Activó los recordatorios');
      break;
    case 'link.reminders_off':
      out = say('staff_action', 'Turned reminders off', 'Desactivó los recordatorios');
      break;
    case 'link.messages_read':
      out = say('staff_read', 'Viewed the messages', 'Vio los mensajes');
      break;
    case 'link.cancelled':
      out = say('staff_action', 'Cancelled the link', 'Canceló el enlace');
      break;
    case 'link.expired':
      out = say('staff_action', 'Expired the link', 'Hizo vencer el enlace');
      break;
    case 'link.extended':
      out = say(
        'staff_action',
        `Extended the link by ${String(d.days)} day(s)`,
        `Extendió el enlace ${String(d.days)} día(s)`,
      );
      break;
    case 'link.completed':
      out = say('link', 'Finished every step', 'Completó todos los pasos');
      break;
    case 'patient.phone_lookup':
      out = say('sign_in', 'Opened the link', 'Abrió el enlace');
      break;
    case 'auth.sms.sent':
      out = say('sign_in', 'Was sent a sign-in code by SMS', 'Recibió un código de acceso por SMS');
      break;
    case 'auth.email.sent':
      out = say('sign_in', 'Was sent a sign-in link by e-mail', 'Recibió un enlace de acceso por correo');
      break;
    case 'auth.sms.verified':
    case 'auth.email.verified':
      out = say('sign_in', 'Signed in', 'Inició sesión');
      break;
    case 'auth.sms.failed':
    case 'auth.email.failed':
      out = say(
        'sign_in',
        'Failed to sign in',
        'No pudo iniciar sesión',
        typeof d.reason === 'string' ? d.reason : null,
        'signIn',
      );
      break;
    case 'auth.logout':
      out = say('sign_in', 'Signed out', 'Cerró sesión');
      break;
    case 'patient.info_read':
      out = say('other', 'Opened patient information', 'Abrió la información del paciente');
      break;
    case 'payment.choice_recorded':
    case 'payment.choice_confirmed':
      out = say(
        'payment',
        `Chose the amount${d.amountCents ? ` ${money(d.amountCents)}` : ''}`,
        `Eligió el monto${d.amountCents ? ` ${money(d.amountCents)}` : ''}`,
      );
      break;
    case 'steps.created':
      out = say('step', 'Started the steps', 'Comenzó los pasos');
      break;
    case 'step.completed':
      out = step
        ? say('step', `Completed the ${step.en} step`, `Completó el paso ${step.es}`)
        : say('step', 'Completed a step', 'Completó un paso');
      break;
    case 'step.updated':
      out =
        d.to === 4 && step
          ? say('step', `Completed the ${step.en} step`, `Completó el paso ${step.es}`)
          : step
            ? say('step', `Started the ${step.en} step`, `Comenzó el paso ${step.es}`)
            : say('step', 'Updated a step', 'Actualizó un paso');
      break;
    case 'document.signed':
      out = doc
        ? say('document', `Signed the ${doc.en}`, `Firmó ${doc.es}`)
        : say('document', 'Signed a document', 'Firmó un documento');
      break;
    case 'document.file_uploaded':
      out = say('document', 'Uploaded an ID image', 'Subió una imagen de identificación');
      break;
    case 'payment.session_issued':
    case 'payment.session_shared':
      out = say('payment', 'Started a card payment', 'Inició un pago con tarjeta');
      break;
    case 'payment.failure_logged': {
      out = say(
        'payment',
        'A card payment was declined or failed',
        'Un pago con tarjeta fue rechazado o falló',
        typeof d.kind === 'string' ? d.kind : null,
        'failure',
      );
      break;
    }
    case 'payment.session_failed':
      out = say('payment', 'The card gateway could not start a payment', 'La pasarela no pudo iniciar el pago');
      break;
    case 'payment.approved':
      out = say(
        'payment',
        `Paid ${money(d.amountCents)}${d.cardBrand ? ` with ${brand(d.cardBrand)} ending ${String(d.cardLast4)}` : ''}`,
        `Pagó ${money(d.amountCents)}${d.cardBrand ? ` con ${brand(d.cardBrand)} terminada en ${String(d.cardLast4)}` : ''}`,
      );
      break;
    case 'payment.receipt_queued':
      out = say('message', 'Receipt sent', 'Recibo enviado');
      break;
    case 'payment.second_payment_refused':
      out = say('payment', 'A second payment was refused', 'Se rechazó un segundo pago');
      break;
    case 'plan.created':
      out = say(
        'payment',
        `Set up a payment plan for ${money(d.totalCents)}`,
        `Creó un plan de pagos por ${money(d.totalCents)}`,
      );
      break;
    case 'plan.agreement_accepted': {
      const at = new Date(row.at).toISOString().replace('T', ' ').slice(0, 19);
      const ua = typeof d.userAgent === 'string' ? d.userAgent : null;
      out = say(
        'payment',
        `Accepted the card-on-file agreement (version ${String(d.version)}) on ${at} UTC from ${row.ip ?? 'an unknown address'}`,
        `Aceptó la autorización para guardar la tarjeta (versión ${String(d.version)}) el ${at} UTC desde ${row.ip ?? 'una dirección desconocida'}`,
        ua,
      );
      break;
    }
    case 'plan.card_stored':
      out = say(
        'payment',
        `Kept the card for the plan${d.last4 ? ` (${d.brand ? `${brand(d.brand)} ` : ''}ending ${String(d.last4)})` : ''}`,
        `Guardó la tarjeta para el plan${d.last4 ? ` (${d.brand ? `${brand(d.brand)} ` : ''}terminada en ${String(d.last4)})` : ''}`,
      );
      break;
    case 'plan.card_missing':
      out = say(
        'payment',
        'The deposit was paid but no card was kept: the plan needs a card',
        'El depósito se pagó pero no se guardó la tarjeta: el plan necesita una tarjeta',
      );
      break;
    case 'plan.activated':
      out = say(
        'payment',
        `The payment plan started: ${String(d.installments)} installment(s) for ${money(d.balanceCents)}`,
        `El plan de pagos comenzó: ${String(d.installments)} cuota(s) por ${money(d.balanceCents)}`,
      );
      break;
    case 'plan.completed':
      out = say('payment', 'The payment plan was paid in full', 'El plan de pagos se pagó por completo');
      break;
    case 'installment.notified':
      out = say(
        'message',
        `Told the patient of charge ${String(d.n)} (${money(d.amountCents)} on ${String(d.dueOn)})`,
        `Avisó al paciente del cobro ${String(d.n)} (${money(d.amountCents)} el ${String(d.dueOn)})`,
        typeof d.movedFrom === 'string'
          ? `due date moved from ${d.movedFrom} to give the full notice / fecha movida desde ${d.movedFrom} para dar el aviso completo`
          : null,
      );
      break;
    case 'installment.paid':
      out = say(
        'payment',
        `Charged installment ${String(d.n)}: ${money(d.amountCents)}`,
        `Cobró la cuota ${String(d.n)}: ${money(d.amountCents)}`,
        typeof d.txnId === 'string' ? d.txnId : null,
        'transaction',
      );
      break;
    case 'installment.declined':
      out = say(
        'payment',
        `Installment ${String(d.n)} (${money(d.amountCents)}) was declined; it will be retried`,
        `La cuota ${String(d.n)} (${money(d.amountCents)}) fue rechazada; se volverá a intentar`,
        reason,
        'gateway',
      );
      break;
    case 'installment.failed':
      out = say(
        'payment',
        `Installment ${String(d.n)} (${money(d.amountCents)}) failed after ${String(d.attempts)} attempts`,
        `La cuota ${String(d.n)} (${money(d.amountCents)}) falló después de ${String(d.attempts)} intentos`,
        reason,
        'gateway',
      );
      break;
    case 'plan.card_updated':
      out = say(
        'payment',
        `Replaced the plan's card${d.last4 ? ` with ${d.brand ? `${brand(d.brand)} ` : ''}ending ${String(d.last4)}` : ''} (verified, nothing charged)`,
        `Cambió la tarjeta del plan${d.last4 ? ` por ${d.brand ? `${brand(d.brand)} ` : ''}terminada en ${String(d.last4)}` : ''} (verificada, sin cobro)`,
        Number(d.retrying) > 0
          ? `${String(d.retrying)} declined installment(s) retried at once / reintento inmediato`
          : null,
      );
      break;
    case 'plan.card_update_refused':
      out = say(
        'payment',
        'A new card for the plan was not verified: the card on file was kept',
        'No se verificó una nueva tarjeta para el plan: se mantuvo la tarjeta registrada',
        typeof d.reason === 'string' ? d.reason : null,
        'gateway',
      );
      break;
    case 'plan.card_expiring_notified':
      out = say(
        'message',
        `Asked the patient for another card: the card expires before installment ${String(d.n)} (${String(d.dueOn)})`,
        `Pidió otra tarjeta al paciente: la tarjeta vence antes de la cuota ${String(d.n)} (${String(d.dueOn)})`,
      );
      break;
    case 'installment.outcome_unknown':
      out = say(
        'payment',
        `The gateway did not answer for installment ${String(d.n)}: it will be checked before any new charge`,
        `La pasarela no respondió por la cuota ${String(d.n)}: se verificará antes de otro cobro`,
      );
      break;
    // The practice's actions on a plan (decision 0210).
    case 'plan.paused':
      out = say('payment', 'Paused the payment plan', 'Pausó el plan de pagos', reasonOf(d));
      break;
    case 'plan.resumed':
      out = say(
        'payment',
        'Resumed the payment plan',
        'Reanudó el plan de pagos',
        Array.isArray(d.renotice) && d.renotice.length
          ? `new notice first for installment(s) ${d.renotice.join(', ')} / primero un nuevo aviso para la(s) cuota(s) ${d.renotice.join(', ')}`
          : reasonOf(d),
      );
      break;
    case 'plan.cancelled':
      out = say(
        'payment',
        `Cancelled the rest of the payment plan (${money(d.cancelledCents)} not to be charged); the patient was told`,
        `Canceló el resto del plan de pagos (${money(d.cancelledCents)} que no se cobrarán); se avisó al paciente`,
        reasonOf(d),
      );
      break;
    case 'installment.rescheduled':
      out = say(
        'payment',
        `Moved installment ${String(d.n)} from ${String(d.from)} to ${String(d.to)}`,
        `Movió la cuota ${String(d.n)} del ${String(d.from)} al ${String(d.to)}`,
        reasonOf(d),
      );
      break;
    case 'installment.charge_requested':
      out = say(
        'payment',
        `Asked to charge installment ${String(d.n)} (${money(d.amountCents)}) now`,
        `Pidió cobrar ahora la cuota ${String(d.n)} (${money(d.amountCents)})`,
        reasonOf(d),
      );
      break;
    case 'installment.refunded':
    case 'installment.voided':
      out = say(
        'payment',
        `Refunded ${money(d.amountCents)} of installment ${String(d.n)}`,
        `Reembolsó ${money(d.amountCents)} de la cuota ${String(d.n)}`,
        typeof d.transactionId === 'string' ? d.transactionId : null,
        'transaction',
      );
      break;
    // Issue 29, item 4 (decision 0219): every action a link's timeline can show has words; none shows its code.
    case 'payment.session_requested':
      out = say(
        'payment',
        `Asked the card gateway for a payment form${d.amountCents ? ` (${money(d.amountCents)})` : ''}`,
        `Pidió a la pasarela un formulario de pago${d.amountCents ? ` (${money(d.amountCents)})` : ''}`,
      );
      break;
    case 'steps.rebuilt':
      out = say('step', 'Started the steps again', 'Comenzó los pasos de nuevo');
      break;
    case 'steps.continue_check':
      out = say('other', 'Came back to continue the steps', 'Volvió para continuar los pasos');
      break;
    // Refunds, reconciliation, receipts and notices in words, not raw action names (issue 29, item 11).
    case 'payment.refund_requested':
    case 'installment.refund_requested': {
      const of = d.n !== undefined ? [` of installment ${String(d.n)}`, ` de la cuota ${String(d.n)}`] : ['', ''];
      out =
        d.kind === 'void'
          ? say(
              'payment',
              `Voided the payment${of[0]} (${money(d.amountCents)})`,
              `Anuló el pago${of[1]} (${money(d.amountCents)})`,
            )
          : say(
              'payment',
              `Refunded ${money(d.amountCents)}${of[0]} to the card`,
              `Reembolsó ${money(d.amountCents)}${of[1]} a la tarjeta`,
            );
      break;
    }
    case 'payment.refund_refused':
      out = say(
        'payment',
        'The gateway refused the refund',
        'La pasarela rechazó el reembolso',
        str(d.message),
        'gateway',
      );
      break;
    case 'payment.refund_outcome_unknown':
      out = say(
        'payment',
        'The gateway did not answer the refund: it will be checked',
        'La pasarela no respondió al reembolso: se verificará',
        str(d.message),
        'gateway',
      );
      break;
    case 'payment.refund_receipt_queued':
      out = say(
        'message',
        `Refund receipt sent by ${d.channel === 'sms' ? 'SMS' : 'e-mail'}`,
        `Recibo del reembolso enviado por ${d.channel === 'sms' ? 'SMS' : 'correo electrónico'}`,
        null,
      );
      break;
    case 'payment.refund_receipt_skipped':
    case 'payment.receipt_skipped':
      out = say(
        'message',
        'No receipt was sent: no address to send it to',
        'No se envió recibo: no hay dirección a la que enviarlo',
        null,
      );
      break;
    case 'payment.patient_notified':
      out = say('message', 'Told the patient that the payor paid', 'Avisó al paciente de que el pagador pagó', null);
      break;
    case 'payment.reconciled':
      out = say(
        'payment',
        `The gateway confirmed a payment of ${money(d.amountCents)} the page did not report`,
        `La pasarela confirmó un pago de ${money(d.amountCents)} que la página no informó`,
        str(d.transactionId),
        'transaction',
      );
      break;
    case 'payment.second_approval_flagged':
      out = say(
        'payment',
        `A second approval of ${money(d.amountCents)} was flagged to be voided`,
        `Se marcó una segunda aprobación de ${money(d.amountCents)} para anularla`,
        str(d.transactionId),
        'transaction',
      );
      break;
    case 'payment.flagged_approval_reversal_requested':
      out = say('payment', 'Voided the second charge', 'Anuló el segundo cargo');
      break;
    case 'payment.confirmation_refused':
      out = say(
        'payment',
        'A payment was not recorded: earlier steps were not finished',
        'No se registró un pago: faltaban pasos anteriores',
        null,
      );
      break;
    case 'payment.confirmation_repeated':
      out = say(
        'payment',
        'The payment page confirmed the payment again',
        'La página de pago confirmó el pago otra vez',
        null,
      );
      break;
    case 'payment.confirmation_unknown':
      out = say(
        'payment',
        'The gateway could not confirm a payment: it will be checked',
        'La pasarela no pudo confirmar un pago: se verificará',
        str(d.reason),
        'gateway',
      );
      break;
    case 'installment.notice_undeliverable':
      out = say(
        'message',
        `The notice of installment ${String(d.n)} could not be sent: no way to reach the patient`,
        `El aviso de la cuota ${String(d.n)} no se pudo enviar: no hay forma de contactar al paciente`,
      );
      break;
    case 'plan.card_update_started':
      out = say('payment', "Started changing the plan's card", 'Comenzó a cambiar la tarjeta del plan');
      break;
    case 'payment.voided':
    case 'payment.flagged_approval_voided':
      out = say('payment', `The gateway voided ${money(d.amountCents)}`, `La pasarela anuló ${money(d.amountCents)}`);
      break;
    case 'payment.refunded':
    case 'payment.flagged_approval_refunded':
      out = say(
        'payment',
        `The gateway refunded ${money(d.amountCents)} to the card`,
        `La pasarela reembolsó ${money(d.amountCents)} a la tarjeta`,
      );
      break;
    case 'payment.reconciliation_flagged':
    case 'payment.needs_attention':
      out = say(
        'payment',
        'The payment needs checking against the gateway',
        'El pago debe verificarse con la pasarela',
        null,
      );
      break;
    case 'auth.sms.locked':
      out = say(
        'sign_in',
        'Too many wrong codes: sign-in locked',
        'Demasiados códigos incorrectos: acceso bloqueado',
        null,
      );
      break;
    case 'auth.email.mismatch':
      out = say(
        'sign_in',
        'Asked for a sign-in link with another e-mail address',
        'Pidió un enlace de acceso con otro correo electrónico',
      );
      break;
    case 'auth.session.refreshed':
      out = say('sign_in', 'Stayed signed in', 'Siguió con la sesión iniciada');
      break;
    case 'steps.read':
      out = say('step', 'Opened the steps', 'Abrió los pasos');
      break;
    case 'payment.receipt_resent':
      out = say(
        'message',
        `Sent the receipt again by ${d.channel === 'sms' ? 'SMS' : 'e-mail'}`,
        `Reenvió el recibo por ${d.channel === 'sms' ? 'SMS' : 'correo electrónico'}`,
      );
      break;
    case 'messaging.opted_out':
      out = say(
        'message',
        `Asked for no more ${d.channel === 'email' ? 'e-mails' : 'text messages'}`,
        `Pidió no recibir más ${d.channel === 'email' ? 'correos' : 'SMS'}`,
      );
      break;
    case 'messaging.opted_in':
      out = say(
        'message',
        `Accepted ${d.channel === 'email' ? 'e-mails' : 'text messages'} again`,
        `Aceptó de nuevo ${d.channel === 'email' ? 'correos' : 'SMS'}`,
      );
      break;
    case 'staff.notified':
      out = say(
        'message',
        d.kind === 'paid'
          ? 'E-mailed the practice that the link was paid'
          : 'E-mailed the practice that a payment needs attention',
        d.kind === 'paid'
          ? 'Avisó por correo a la práctica que el enlace se pagó'
          : 'Avisó por correo a la práctica que un pago necesita atención',
      );
      break;
    case 'admin.link_viewed':
      out = say('staff_read', 'Viewed the link', 'Vio el enlace');
      break;
    case 'admin.links_listed':
      out = say('staff_read', 'Saw the link in a list', 'Vio el enlace en una lista');
      break;
    case 'documents.listed':
      out = say('staff_read', 'Viewed the documents', 'Vio los documentos');
      break;
    case 'document.downloaded':
      out = doc
        ? say('staff_read', `Downloaded the signed ${doc.en}`, `Descargó ${doc.es} firmado`)
        : say('staff_read', 'Downloaded a signed document', 'Descargó un documento firmado');
      break;
    case 'document.viewed':
    case 'document.original_read':
    case 'document.file_read':
      out = say(
        row.actor_type === 'staff' ? 'staff_read' : 'document',
        doc ? `Opened the ${doc.en}` : 'Opened a document',
        doc ? `Abrió ${doc.es}` : 'Abrió un documento',
      );
      break;
    default:
      // An action without words yet reads as an event; its code stays available as the note (decision 0219).
      out = say(row.actor_type === 'staff' ? 'staff_action' : 'other', 'Other event', 'Otro evento', row.action);
  }
  const [category, said, note, noteKind] = out;
  const st = row.delivery_status ? DELIVERY[row.delivery_status] : undefined;
  const text = st ? { en: `${said.en} — ${st.en}`, es: `${said.es} — ${st.es}` } : said;
  // Before sign-in the patient's calls are recorded as the system's; they are still the patient's doing.
  const patient = row.actor_type === 'link' || /^(patient|auth)\./.test(row.action);
  const type = row.actor_type === 'staff' ? 'staff' : patient ? 'patient' : 'system';
  const name =
    type === 'staff' ? row.staff_name || row.staff_email || 'Staff' : type === 'patient' ? 'Patient' : 'System';
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    action: row.action,
    category,
    actor: { type, name },
    text,
    note,
    noteKind: note === null ? 'text' : noteKind,
  };
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** A staff member's optional note on a plan action, shown as the event's detail. */
function reasonOf(d: Record<string, unknown>): string | null {
  return typeof d.reason === 'string' && d.reason ? d.reason : null;
}
