/**
 * Slice `stepProduction` (the spec's stepsProduction): a list of step lists; the first list is the link's ordered
 * step list from the server (shared LinkStep: linkStepId, routePath, documentUrl, linkStepStatusId).
 *
 * Actions: setSteps(LinkStep[]) replaces the list; updateStepStatus({ linkStepId, linkStepStatusId }) changes one
 * step's status (dispatch it with 4 BEFORE navigating on: the step guard sends users back to the first incomplete
 * step before the route they ask for); resetStepProduction().
 * Selectors: selectSteps(state) → LinkStep[]; nextRoutePath(steps, currentRoutePath) → the following step's route.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LinkStep } from '@paylink/shared';

export interface StepProductionState {
  stepsProduction: LinkStep[][];
}

export const initialStepProductionState: StepProductionState = { stepsProduction: [] };

const stepProductionSlice = createSlice({
  name: 'stepProduction',
  initialState: initialStepProductionState,
  reducers: {
    setSteps(state, action: PayloadAction<LinkStep[]>) {
      state.stepsProduction = [action.payload];
    },
    updateStepStatus(state, action: PayloadAction<{ linkStepId: number; linkStepStatusId: number }>) {
      const step = state.stepsProduction[0]?.find((s) => s.linkStepId === action.payload.linkStepId);
      if (step) step.linkStepStatusId = action.payload.linkStepStatusId;
    },
    resetStepProduction: () => initialStepProductionState,
  },
});

export const { setSteps, updateStepStatus, resetStepProduction } = stepProductionSlice.actions;
export default stepProductionSlice.reducer;

const NO_STEPS: LinkStep[] = [];
export const selectSteps = (s: { stepProduction: StepProductionState }): LinkStep[] =>
  s.stepProduction.stepsProduction[0] ?? NO_STEPS;

/** The route of the step after `currentRoutePath` in the ordered list, or undefined when it is the last. */
export function nextRoutePath(steps: LinkStep[], currentRoutePath: string): string | undefined {
  const i = steps.findIndex((s) => s.routePath === currentRoutePath);
  return i >= 0 ? steps[i + 1]?.routePath : undefined;
}

/** The step of a route, e.g. stepFor(steps, '/patientcontract'). */
export function stepFor(steps: LinkStep[], routePath: string): LinkStep | undefined {
  return steps.find((s) => s.routePath === routePath);
}
