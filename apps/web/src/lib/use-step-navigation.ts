/**
 * Step status updates of spec section 4, shared by the document steps and the payment page:
 * - on entry: continuing a previous session → clear the continue flag, no call; status already 2 or 4 → no call;
 *   otherwise PUT /api/linksteps … LinkStepStatusId=2;
 * - complete(): PUT … LinkStepStatusId=4, mark it locally, go to the next step's routePath.
 * A failed call is shown full-page ('Error {status} {statusText}') or routed by useApiFailure.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from './router';
import { patientEndpoints, StepStatus, type LinkStep } from '@paylink/shared';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { type ApiError, call } from './api-client';
import { useApiFailure } from './use-api-failure';
import { setContinue } from '../store/continue-slice';
import { nextRoutePath, selectSteps, stepFor, updateStepStatus } from '../store/step-production-slice';

export type EntryAction = 'clearContinue' | 'none' | 'setInProgress';

export function entryAction(isContinue: boolean, linkStepStatusId: number | undefined): EntryAction {
  if (isContinue) return 'clearContinue';
  if (linkStepStatusId === StepStatus.InProgress || linkStepStatusId === StepStatus.Completed) return 'none';
  return 'setInProgress';
}

export function putStepStatus(linkId: string, linkStepId: number, status: 2 | 4) {
  return call(patientEndpoints.updateStep, { query: { linkId, linkStepId, LinkStepStatusId: status } });
}

export interface StepNavigation {
  step: LinkStep | undefined;
  steps: LinkStep[];
  linkId: string;
  /** A status call is under way (spinner). */
  busy: boolean;
  /** complete() succeeded: the button stays disabled while the next page loads. */
  done: boolean;
  /** A failed call to show full-page. */
  error: ApiError | null;
  setError: (e: ApiError | null) => void;
  complete: () => Promise<void>;
}

export function useStepNavigation(routePath: string): StepNavigation {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const fail = useApiFailure();
  const steps = useAppSelector(selectSteps);
  const linkId = useAppSelector((s) => s.link.link_id);
  const isContinue = useAppSelector((s) => s.continue.isContinue);
  const step = stepFor(steps, routePath);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const entered = useRef<number | null>(null);
  const completing = useRef(false);

  const linkStepId = step?.linkStepId;
  const statusId = step?.linkStepStatusId;
  // Decided once, on entry: clearing the continue flag must not turn into a status call afterwards.
  const [entry] = useState(() => ({ linkStepId, action: entryAction(isContinue, statusId) }));
  useEffect(() => {
    // Once per page, also under StrictMode's double effects (a ref, so the call is not repeated).
    if (entry.linkStepId === undefined || entered.current === entry.linkStepId) return;
    const id = entry.linkStepId;
    entered.current = id;
    if (entry.action === 'clearContinue') dispatch(setContinue(false));
    if (entry.action !== 'setInProgress') return;
    putStepStatus(linkId, id, StepStatus.InProgress)
      .then(() => dispatch(updateStepStatus({ linkStepId: id, linkStepStatusId: StepStatus.InProgress })))
      .catch((e: unknown) => setError(fail(e)));
  }, [entry, linkId, dispatch, fail]);

  const complete = useCallback(async () => {
    if (linkStepId === undefined || completing.current) return;
    completing.current = true;
    setBusy(true);
    try {
      // A step completed earlier (the patient came back to it) needs no second update.
      if (statusId !== StepStatus.Completed) await putStepStatus(linkId, linkStepId, StepStatus.Completed);
      // Before navigating: the step guard sends users back to the first incomplete step.
      dispatch(updateStepStatus({ linkStepId, linkStepStatusId: StepStatus.Completed }));
      setDone(true);
      await navigate(nextRoutePath(steps, routePath) ?? '/confirmation');
    } catch (e) {
      completing.current = false;
      setError(fail(e));
    } finally {
      setBusy(false);
    }
  }, [linkStepId, statusId, linkId, dispatch, navigate, steps, routePath, fail]);

  // The entry call is under way until the store shows the step in progress (or it failed).
  const entering =
    entry.action === 'setInProgress' &&
    statusId !== StepStatus.InProgress &&
    statusId !== StepStatus.Completed &&
    !error;
  return { step, steps, linkId, busy: busy || entering, done, error, setError, complete };
}
