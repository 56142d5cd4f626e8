import { describe, expect, it } from 'vitest';
import { confirmPaymentBodySchema } from '@paylink/shared';
import { canPayNow, emptyCardForm, isPayorEmail, prefillCardForm, validateCardForm, type CardForm } from './card-form';
import { US_STATES, stateValueFor } from './us-states';

const now = new Date(2026, 2, 15);
const complete: CardForm = {
  FullName: 'Jane Doe',
  CardNumber: '4000000000000002',
  ExpirationDate: '1230',
  Cvc: '123',
  BillingZip: '90210',
  BillingAddress: '1 Main St',
  BillingCity: 'Beverly Hills',
  BillingState: 'California',
  PayorEmail: '',
  ReceiptEmail: '',
  Agreed: true,
};
const patientCtx = { paymentSource: 1, authorisationSigned: false, now, submitting: false };
const payorCtx = { paymentSource: 2, authorisationSigned: true, now, submitting: false };

describe('PAY NOW', () => {
  it('is enabled when every rule passes (patient pays)', () => {
    expect(validateCardForm(complete, patientCtx)).toEqual({});
    expect(canPayNow(complete, patientCtx)).toBe(true);
  });

  it('is disabled while a submission is under way', () => {
    expect(canPayNow(complete, { ...patientCtx, submitting: true })).toBe(false);
  });

  it.each([
    ['FullName', '   ', 'required.fullName'],
    ['CardNumber', '400000000000', 'cardNumber.tooShort'],
    ['ExpirationDate', '1225', 'expiry.year'],
    ['Cvc', '12', 'cvc.length'],
    ['BillingZip', '', 'required.billingZip'],
    ['BillingAddress', '', 'required.billingAddress'],
    ['BillingCity', ' ', 'required.billingCity'],
    ['BillingState', '', 'required.billingState'],
  ] as const)('is disabled when %s is %j', (field, value, key) => {
    const form = { ...complete, [field]: value };
    expect(validateCardForm(form, patientCtx)).toEqual({ [field]: key });
    expect(canPayNow(form, patientCtx)).toBe(false);
  });

  it('is disabled until the terms are agreed', () => {
    expect(validateCardForm({ ...complete, Agreed: false }, patientCtx)).toEqual({ Agreed: 'required.agreement' });
  });

  it('does not ask the patient for a payor e-mail or signature', () => {
    expect(canPayNow({ ...complete, PayorEmail: '' }, { ...patientCtx, authorisationSigned: false })).toBe(true);
  });

  it('needs the payor e-mail and the signed authorisation when the payor pays', () => {
    const payorForm = { ...complete, PayorEmail: 'payor@example.com' };
    expect(canPayNow(payorForm, payorCtx)).toBe(true);
    expect(validateCardForm({ ...payorForm, PayorEmail: '' }, payorCtx)).toEqual({
      PayorEmail: 'required.payorEmail',
    });
    expect(validateCardForm({ ...payorForm, PayorEmail: 'not-an-address' }, payorCtx)).toEqual({
      PayorEmail: 'invalid.payorEmail',
    });
    expect(validateCardForm(payorForm, { ...payorCtx, authorisationSigned: false })).toEqual({
      Signature: 'required.signature',
    });
    expect(canPayNow(payorForm, { ...payorCtx, authorisationSigned: false })).toBe(false);
  });

  it('takes an optional receipt e-mail when the patient pays: empty is fine, a typo is not', () => {
    expect(validateCardForm({ ...complete, ReceiptEmail: '' }, patientCtx)).toEqual({});
    expect(validateCardForm({ ...complete, ReceiptEmail: 'ana@example.com' }, patientCtx)).toEqual({});
    expect(validateCardForm({ ...complete, ReceiptEmail: 'ana@example' }, patientCtx)).toEqual({
      ReceiptEmail: 'invalid.receiptEmail',
    });
    expect(
      confirmPaymentBodySchema.safeParse({ linkId: 'a'.repeat(22), transactionId: 'T1', receiptEmail: 'ana@example' })
        .success,
    ).toBe(false);
  });
});

describe('prefill', () => {
  const patient = {
    firstName: 'Jane',
    lastName: 'Doe',
    address: '1 Main St',
    city: 'Austin',
    state: 'TX',
    zipCode: '73301',
    email: 'jane@example.com',
  };
  it('fills name, zip, address, city, state and the receipt e-mail from the patient when the patient pays', () => {
    expect(prefillCardForm(1, patient)).toEqual({
      ...emptyCardForm,
      FullName: 'Jane Doe',
      BillingZip: '73301',
      BillingAddress: '1 Main St',
      BillingCity: 'Austin',
      BillingState: 'Texas',
      ReceiptEmail: 'jane@example.com',
    });
  });
  it('starts empty when the payor pays', () => {
    expect(prefillCardForm(2, patient)).toEqual(emptyCardForm);
  });
  it("prefills only the payor's e-mail the coordinator entered when the payor pays (issue 16, item 7)", () => {
    expect(prefillCardForm(2, { ...patient, payorEmail: ' pat@example.com ' })).toEqual({
      ...emptyCardForm,
      PayorEmail: 'pat@example.com',
    });
    expect(prefillCardForm(1, { ...patient, payorEmail: 'pat@example.com' }).PayorEmail).toBe('');
  });
  it('never prefills card data', () => {
    const f = prefillCardForm(1, patient);
    expect([f.CardNumber, f.ExpirationDate, f.Cvc, f.Agreed]).toEqual(['', '', '', false]);
  });
});

describe('US states', () => {
  it('lists the 50 states with unique abbreviations', () => {
    expect(US_STATES).toHaveLength(50);
    expect(new Set(US_STATES.map((s) => s.abbreviation)).size).toBe(50);
  });
  it('maps a record state to the dropdown value', () => {
    expect(stateValueFor('ny')).toBe('New York');
    expect(stateValueFor('New York')).toBe('New York');
    expect(stateValueFor('DC')).toBe('');
    expect(stateValueFor(null)).toBe('');
  });
});

describe('payor e-mail rule', () => {
  it.each([
    'pat@example.com',
    'pat.payor+deposit@mail.example.co.uk',
    "o'neil@example.org",
    'pat@',
    'pat@example',
    '.pat@example.com',
    'pat..payor@example.com',
    'pat payor@example.com',
    'pat@-example.com',
    'pat@example.c',
    '',
  ])('%j is judged as the server judges it', (email) => {
    const server = confirmPaymentBodySchema.shape.payorEmail.safeParse(email).success && email !== '';
    expect(isPayorEmail(email)).toBe(server);
  });
});
