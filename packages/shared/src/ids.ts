/** Identifier sets of spec section 3. The API carries them as numbers; the client may hold them as strings. */
export const PaymentType = { Deposit: 1, Payment: 2 } as const;
export type PaymentTypeId = (typeof PaymentType)[keyof typeof PaymentType];

export const PaymentSource = { Patient: 1, Payor: 2 } as const;
export type PaymentSourceId = (typeof PaymentSource)[keyof typeof PaymentSource];

/** Step status ids: 1 = not started (ours; the spec only names 2 and 4), 2 = in progress, 4 = completed. */
export const StepStatus = { NotStarted: 1, InProgress: 2, Completed: 4 } as const;
export type StepStatusId = (typeof StepStatus)[keyof typeof StepStatus];

/** A link id as the server issues it (URL-safe, 22 to 64 characters). */
export const LINK_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export const LinkStatus = { Active: 'active', Cancelled: 'cancelled', Completed: 'completed' } as const;
export type LinkStatusValue = (typeof LinkStatus)[keyof typeof LinkStatus];

export const SignInMethods = ['sms', 'email'] as const;
export type SignInMethod = (typeof SignInMethods)[number];
/** The meta tag in /auth's HTML that names the link's sign-in method (decision 0185). */
export const SIGN_IN_METHOD_META = 'paylink-sign-in';

export const Languages = ['en', 'es'] as const;
export type Language = (typeof Languages)[number];

/** Bodies of the 401 answers the client routes on (spec section 4). */
export const LinkMessages = {
  expired: 'Link Expired.',
  cancelled: 'Link has been Cancelled.',
  completed: 'Process has completed.',
} as const;

/** Route paths of the ordered step list (spec section 2). */
export const StepRoutes = {
  patientInfo: '/patientinfo',
  invoice: '/patientinvoicedetail',
  patientId: '/patientiddocs',
  payorId: '/payoriddocs',
  contract: '/patientcontract',
  payment: '/paymentauthorization',
  confirmation: '/confirmation',
} as const;
export type StepRoute = (typeof StepRoutes)[keyof typeof StepRoutes];

/** The ordered step list for a payment source: the payor ID step only when the payor pays. */
export function stepRoutesFor(source: PaymentSourceId): StepRoute[] {
  return [
    StepRoutes.patientInfo,
    StepRoutes.invoice,
    StepRoutes.patientId,
    ...(source === PaymentSource.Payor ? [StepRoutes.payorId] : []),
    StepRoutes.contract,
    StepRoutes.payment,
    StepRoutes.confirmation,
  ];
}

/** Steps whose completion needs a signed (or uploaded) document. */
export const DocumentStepRoutes: readonly StepRoute[] = [
  StepRoutes.invoice,
  StepRoutes.patientId,
  StepRoutes.payorId,
  StepRoutes.contract,
];
