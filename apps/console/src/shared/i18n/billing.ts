import type { Dictionary } from './types';

/**
 * Strings of what a billing manager reads on a link (issue 29, item 4; decision 0219): who paid, the receipt resend.
 * Mounted as `billing.*`.
 */
export const billingEn = {
  paidBy: 'Paid by',
  paidByPatient: '{{name}} (the patient)',
  paidByPayor: '{{name}} (payor)',
  paidByPayorUnnamed: 'The payor',
  nameOnCard: 'Name on the card',
  payorPlanned: 'Payor named on the link',
  receipt: {
    action: 'Resend receipt',
    title: 'Resend the payment receipt?',
    body: 'The receipt goes again where the first one went: the payor’s or the patient’s e-mail on file, else a text to the patient’s phone.',
    confirm: 'Resend receipt',
    sent: 'The receipt was sent again to {{to}}.',
  },
  refund: {
    voidOnlyPartial:
      'This payment has not settled yet, so today it can only be cancelled (voided) in full: {{total}}. Go back and leave the amount empty to void it all, or refund part of it after the gateway settles the batch (usually the next business day).',
    voidOnlyFull: 'This payment has not settled yet: it will be cancelled (voided) in full, {{total}}.',
  },
};

export const billingEs: Dictionary<typeof billingEn> = {
  paidBy: 'Pagado por',
  paidByPatient: '{{name}} (el paciente)',
  paidByPayor: '{{name}} (pagador)',
  paidByPayorUnnamed: 'El pagador',
  nameOnCard: 'Nombre en la tarjeta',
  payorPlanned: 'Pagador indicado en el enlace',
  receipt: {
    action: 'Reenviar recibo',
    title: '¿Reenviar el recibo del pago?',
    body: 'El recibo se envía de nuevo adonde fue el primero: el correo del pagador o del paciente registrado o, si no hay, un SMS al teléfono del paciente.',
    confirm: 'Reenviar recibo',
    sent: 'El recibo se envió de nuevo a {{to}}.',
  },
  refund: {
    voidOnlyPartial:
      'Este pago aún no se ha liquidado, así que hoy solo se puede cancelar (anular) por completo: {{total}}. Vuelva y deje el monto vacío para anularlo todo, o reembolse una parte cuando la pasarela liquide el lote (normalmente el siguiente día hábil).',
    voidOnlyFull: 'Este pago aún no se ha liquidado: se cancelará (anulará) por completo, {{total}}.',
  },
};
