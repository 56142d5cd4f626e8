/** What each staff role may do in the console (the server enforces the same on every route; this only hides). */
export type StaffRole = 'admin' | 'coordinator' | 'billing';

export type Permission =
  | 'links.view'
  | 'links.create'
  | 'links.manage'
  | 'payments.view'
  | 'payments.export'
  | 'payments.refund'
  /** Send a paid link's receipt again (every role; issue 29, item 4). */
  | 'receipts.resend'
  /** Pause, resume, reschedule and cancel a payment plan (every role; charging and refunding is payments.refund). */
  | 'plans.manage'
  | 'webhooks.manage'
  | 'funnel.view'
  | 'staff.manage'
  | 'settings.manage'
  /** The payment page's script inventory, tamper checks and CSP reports (PCI DSS). */
  | 'compliance.view';

const GRANTS: Record<StaffRole, readonly Permission[]> = {
  admin: [
    'links.view',
    'links.create',
    'links.manage',
    'payments.view',
    'payments.export',
    'payments.refund',
    'receipts.resend',
    'plans.manage',
    'funnel.view',
    'staff.manage',
    'settings.manage',
    'webhooks.manage',
    'compliance.view',
  ],
  coordinator: [
    'links.view',
    'links.create',
    'links.manage',
    'payments.view',
    'payments.export',
    'receipts.resend',
    'plans.manage',
    'funnel.view',
  ],
  billing: [
    'links.view',
    'payments.view',
    'payments.export',
    'payments.refund',
    'receipts.resend',
    'plans.manage',
    'funnel.view',
  ],
};

export function can(role: string | undefined, permission: Permission): boolean {
  if (!role || !(role in GRANTS)) return false;
  return GRANTS[role as StaffRole].includes(permission);
}
