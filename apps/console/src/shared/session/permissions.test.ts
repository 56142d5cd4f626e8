import { describe, expect, it } from 'vitest';
import { can } from './permissions';

describe('what each role sees', () => {
  it('billing sees payments and exports but cannot create or change links', () => {
    expect(can('billing', 'payments.export')).toBe(true);
    expect(can('billing', 'links.create')).toBe(false);
    expect(can('billing', 'links.manage')).toBe(false);
  });
  it('a coordinator creates links but cannot manage staff or settings', () => {
    expect(can('coordinator', 'links.create')).toBe(true);
    expect(can('coordinator', 'staff.manage')).toBe(false);
    expect(can('coordinator', 'settings.manage')).toBe(false);
  });
  it('an admin can do everything; an unknown role nothing', () => {
    expect(can('admin', 'staff.manage')).toBe(true);
    expect(can('admin', 'settings.manage')).toBe(true);
    expect(can('intruder', 'links.view')).toBe(false);
    expect(can(undefined, 'links.view')).toBe(false);
  });
});

describe('money operations (issue 15)', () => {
  it('refunds, evidence and bookkeeping exports for billing and admin, never a coordinator; webhooks admin only', () => {
    expect(can('billing', 'payments.refund')).toBe(true);
    expect(can('admin', 'payments.refund')).toBe(true);
    expect(can('coordinator', 'payments.refund')).toBe(false);
    expect(can('admin', 'webhooks.manage')).toBe(true);
    expect(can('billing', 'webhooks.manage')).toBe(false);
    expect(can('coordinator', 'webhooks.manage')).toBe(false);
  });
});
