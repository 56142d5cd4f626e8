/**
 * First load of /patientinfo with a signed-in user (spec section 4): clear what a previous visit persisted, then the
 * continue check. 200 → restore the step list and patient data, mark the session as continuing and go to
 * currentRoutePath; 404 → load fresh patient info; 401 → routed by message (useApiFailure).
 */
import { patientEndpoints, StepRoutes } from '@paylink/shared';
import { clearSessionData, type AppDispatch } from '../../store/store';
import { setPatient } from '../../store/patient-slice';
import { setSteps } from '../../store/step-production-slice';
import { setContinue } from '../../store/continue-slice';
import { ApiError, call } from '../../lib/api-client';

/** continue: go to routePath; restored: patient data came back but the patient is still on /patientinfo; fresh: 404. */
export type LoadOutcome = { kind: 'continue'; routePath: string } | { kind: 'restored' } | { kind: 'fresh' };

/** Clear, then the continue check alone: 'fresh' when the link has no step list yet (404). */
export async function continueCheck(opts: {
  linkId: string;
  dispatch: AppDispatch;
  signal?: AbortSignal;
}): Promise<LoadOutcome> {
  const { linkId, dispatch, signal } = opts;
  clearSessionData(dispatch);
  try {
    const c = await call(patientEndpoints.continueCheck, { params: { linkId }, signal });
    dispatch(setSteps(c.linkStepScript));
    dispatch(
      setPatient({
        ...c.person,
        paymentAmount: c.payment.paymentAmount ?? c.paymentAmount,
        paymentType: c.payment.paymentTypeId,
        paymentSource: c.payment.paymentSourceId,
      }),
    );
    if (c.currentRoutePath && c.currentRoutePath !== StepRoutes.patientInfo) {
      dispatch(setContinue(true));
      return { kind: 'continue', routePath: c.currentRoutePath };
    }
    return { kind: 'restored' };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { kind: 'fresh' };
    throw e;
  }
}

export async function loadPatientInfo(opts: {
  linkId: string;
  dispatch: AppDispatch;
  signal?: AbortSignal;
}): Promise<LoadOutcome> {
  const outcome = await continueCheck(opts);
  if (outcome.kind !== 'fresh') return outcome;
  const info = await call(patientEndpoints.patientInfo, { params: { linkId: opts.linkId }, signal: opts.signal });
  opts.dispatch(setPatient(info));
  return { kind: 'fresh' };
}
