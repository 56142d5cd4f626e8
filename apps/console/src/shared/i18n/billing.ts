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
    body: 'The patient gets the receipt again by {{channel}} at {{to}}.',
    bodyNoAddress: 'The patient gets the receipt again, by e-mail or SMS as when they paid.',
    confirm: 'Resend receipt',
    sent: 'The receipt was sent again to {{to}}.',
    email: 'e-mail',
    sms: 'SMS',
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
    body: 'El paciente recibe de nuevo el recibo por {{channel}} en {{to}}.',
    bodyNoAddress: 'El paciente recibe de nuevo el recibo, por correo electrónico o SMS como cuando pagó.',
    confirm: 'Reenviar recibo',
    sent: 'El recibo se envió de nuevo a {{to}}.',
    email: 'correo electrónico',
    sms: 'SMS',
  },
};
