import { StepStatus, type LinkStep, type PatientInfo } from '@paylink/shared';
import type { PatientLink, PatientPayment, PatientStep } from './read-patient-link.js';

/** Whole dollars as the patient typed them; cents that are not whole dollars keep their fraction. */
export const centsToDollars = (cents: number): number => cents / 100;

export function toPatientInfo(link: PatientLink, payment: PatientPayment | null): PatientInfo {
  return {
    firstName: link.first_name,
    lastName: link.last_name,
    address: link.address,
    city: link.city,
    state: link.state,
    zipCode: link.zip_code,
    phone: link.phone,
    email: link.email,
    paymentSource: payment?.payment_source_id ?? null,
    paymentType: payment?.payment_type_id ?? null,
    paymentAmount: payment ? centsToDollars(payment.amount_cents) : null,
    isPaymentLinkLocked: link.is_payment_link_locked,
    payorName: link.payor_name,
    payorEmail: link.payor_email,
  };
}

export function toLinkStep(step: PatientStep): LinkStep {
  return {
    linkStepId: step.id,
    routePath: step.route_path,
    documentUrl: step.document_url,
    linkStepStatusId: step.status_id,
  };
}

/** The first step not completed (where a returning patient continues); the last step when all are complete. */
export function currentRoutePath(steps: Pick<PatientStep, 'route_path' | 'status_id'>[]): string | null {
  const open = steps.find((s) => s.status_id !== StepStatus.Completed);
  return (open ?? steps.at(-1))?.route_path ?? null;
}
