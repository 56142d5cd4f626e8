/**
 * A link's payment plan (issue 28; the payment and confirmation pages): GET /api/plans/:linkId. A 404 is the ordinary answer for a link without a plan,
 * so it is 'none', not an error; anything else that fails is 'error' and the caller must not let the patient pay
 * without having seen the schedule.
 */
import { useCallback, useEffect, useState } from 'react';
import { dollarsToCents, patientEndpoints, planScheduleLine, type PatientPlanView } from '@paylink/shared';
import { ApiError, call } from './api-client';

export type PlanState =
  | { status: 'loading' }
  | { status: 'none' }
  | { status: 'ready'; plan: PatientPlanView }
  | { status: 'error'; error: unknown };

export function usePlan(linkId: string): PlanState & { retry: () => void } {
  const [state, setState] = useState<PlanState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!linkId) return;
    const controller = new AbortController();
    call(patientEndpoints.plan, { params: { linkId }, signal: controller.signal }).then(
      (plan) => setState({ status: 'ready', plan }),
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setState(e instanceof ApiError && e.status === 404 ? { status: 'none' } : { status: 'error', error: e });
      },
    );
    return () => controller.abort();
  }, [linkId, attempt]);
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((a) => a + 1);
  }, []);
  return { ...state, retry };
}

/** 'YYYY-MM-DD' in the patient's language ("January 15, 2027", "15 de enero de 2027"), as the calendar day. */
export function formatDueDate(dueOn: string, locale: string): string {
  return new Date(`${dueOn}T00:00:00Z`).toLocaleDateString(locale, { dateStyle: 'long', timeZone: 'UTC' });
}

/** The instalments still to be charged, as "January 15, 2027: $1,500.00" lines in the patient's language. */
export function scheduleLines(plan: PatientPlanView, locale: string): string[] {
  return plan.installments
    .filter((i) => i.status === 'scheduled' || i.status === 'notified')
    .map((i) => planScheduleLine({ dueOn: i.dueOn, amountCents: dollarsToCents(i.amount) }, locale));
}
