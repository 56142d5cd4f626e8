import { describe, expect, it } from 'vitest';
import { stepGuard } from './guards';

const list = (
  statuses: number[],
  routes = [
    '/patientinfo',
    '/patientinvoicedetail',
    '/patientiddocs',
    '/patientcontract',
    '/paymentauthorization',
    '/confirmation',
  ],
) => statuses.map((linkStepStatusId, i) => ({ routePath: routes[i]!, linkStepStatusId }));

describe('stepGuard (decision 0021)', () => {
  it('no step list → the unauthorised page', () => {
    expect(stepGuard([], '/patientinvoicedetail')).toEqual({ allow: false });
  });
  it('a route not in this link’s list → the unauthorised page', () => {
    expect(stepGuard(list([4, 1, 1, 1, 1, 1]), '/payoriddocs')).toEqual({ allow: false });
  });
  it('a step whose earlier steps are complete is allowed (patient info counts as done)', () => {
    expect(stepGuard(list([1, 1, 1, 1, 1, 1]), '/patientinvoicedetail')).toEqual({ allow: true });
    expect(stepGuard(list([4, 4, 4, 2, 1, 1]), '/patientcontract')).toEqual({ allow: true });
    expect(stepGuard(list([4, 4, 4, 4, 4, 1]), '/patientiddocs')).toEqual({ allow: true });
  });
  it('skipping ahead goes to the first incomplete step', () => {
    expect(stepGuard(list([4, 2, 1, 1, 1, 1]), '/paymentauthorization')).toEqual({
      allow: false,
      redirect: '/patientinvoicedetail',
    });
  });
});
