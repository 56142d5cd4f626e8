import { PaymentSource } from '@paylink/shared';
import { validateCardNumber, validateCvc, validateExpiry } from './card-rules';
import { stateValueFor } from './us-states';

/** Card form state of spec section 3. Lives in component state only: never Redux, never persisted, never sent to us. */
export interface CardForm {
  FullName: string;
  CardNumber: string;
  ExpirationDate: string;
  Cvc: string;
  BillingZip: string;
  BillingAddress: string;
  BillingCity: string;
  BillingState: string;
  PayorEmail: string;
  /** Patient pays: where the receipt is e-mailed (optional; empty = by SMS to the phone on file). */
  ReceiptEmail: string;
  Agreed: boolean;
}

export type CardField = Exclude<keyof CardForm, 'Agreed'>;

export const emptyCardForm: CardForm = {
  FullName: '',
  CardNumber: '',
  ExpirationDate: '',
  Cvc: '',
  BillingZip: '',
  BillingAddress: '',
  BillingCity: '',
  BillingState: '',
  PayorEmail: '',
  ReceiptEmail: '',
  Agreed: false,
};

export interface PatientRecordLike {
  firstName?: string | null;
  lastName?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  email?: string | null;
  payorEmail?: string | null;
}

/**
 * Patient-paid payments start from the patient record (spec section 5). Payor-paid ones start empty except the payor
 * e-mail the coordinator entered (issue 16, item 7; docs/decisions/0166): the payor can still change it.
 */
export function prefillCardForm(paymentSource: number, patient: PatientRecordLike | null | undefined): CardForm {
  if (!patient) return { ...emptyCardForm };
  if (paymentSource === PaymentSource.Payor) return { ...emptyCardForm, PayorEmail: (patient.payorEmail ?? '').trim() };
  return {
    ...emptyCardForm,
    FullName: [patient.firstName, patient.lastName]
      .map((s) => (s ?? '').trim())
      .filter(Boolean)
      .join(' '),
    BillingZip: (patient.zipCode ?? '').trim(),
    BillingAddress: (patient.address ?? '').trim(),
    BillingCity: (patient.city ?? '').trim(),
    BillingState: stateValueFor(patient.state),
    ReceiptEmail: (patient.email ?? '').trim(),
  };
}

export type CardFormErrors = Partial<Record<CardField | 'Agreed' | 'Signature', string>>;

export interface CardFormContext {
  paymentSource: number;
  /** The payor's authorisation document has been signed (only asked when the payor pays). */
  authorisationSigned: boolean;
  now?: Date;
}

/**
 * The e-mail rule of the server's confirmPaymentBodySchema (zod's z.email() pattern), copied so this page does not
 * ship zod; card-form.test.ts checks that both agree.
 */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const isPayorEmail = (value: string) => EMAIL.test(value);

/** Every failing rule, as translation keys of the `payment` namespace. Empty when PAY NOW may be pressed. */
export function validateCardForm(form: CardForm, ctx: CardFormContext): CardFormErrors {
  const errors: CardFormErrors = {};
  if (!form.FullName.trim()) errors.FullName = 'required.fullName';
  const card = validateCardNumber(form.CardNumber);
  if (card) errors.CardNumber = card;
  const expiry = validateExpiry(form.ExpirationDate, ctx.now);
  if (expiry) errors.ExpirationDate = expiry;
  const cvc = validateCvc(form.Cvc);
  if (cvc) errors.Cvc = cvc;
  if (!form.BillingZip.trim()) errors.BillingZip = 'required.billingZip';
  if (!form.BillingAddress.trim()) errors.BillingAddress = 'required.billingAddress';
  if (!form.BillingCity.trim()) errors.BillingCity = 'required.billingCity';
  if (!form.BillingState) errors.BillingState = 'required.billingState';
  if (ctx.paymentSource === PaymentSource.Payor) {
    // The server takes the same e-mail rule after the charge; refuse here so an approved payment is never rejected.
    if (!form.PayorEmail.trim()) errors.PayorEmail = 'required.payorEmail';
    else if (!isPayorEmail(form.PayorEmail.trim())) errors.PayorEmail = 'invalid.payorEmail';
    if (!ctx.authorisationSigned) errors.Signature = 'required.signature';
  } else if (form.ReceiptEmail.trim() && !isPayorEmail(form.ReceiptEmail.trim())) {
    // Optional, but a typo would lose the receipt: the server takes the same rule.
    errors.ReceiptEmail = 'invalid.receiptEmail';
  }
  if (!form.Agreed) errors.Agreed = 'required.agreement';
  return errors;
}

/** PAY NOW: every rule passes and no submission is under way. */
export function canPayNow(form: CardForm, ctx: CardFormContext & { submitting: boolean }): boolean {
  return !ctx.submitting && Object.keys(validateCardForm(form, ctx)).length === 0;
}
