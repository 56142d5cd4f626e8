/**
 * Slice `step` (spec section 3): a list of step objects, each with its order and whether it is complete.
 * Kept for parity with the spec; the authoritative step list is `stepProduction`.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface StepItem {
  order: number;
  isComplete: boolean;
}
export interface StepState {
  steps: StepItem[];
}

export const initialStepState: StepState = { steps: [] };

const stepSlice = createSlice({
  name: 'step',
  initialState: initialStepState,
  reducers: {
    setStepItems(state, action: PayloadAction<StepItem[]>) {
      state.steps = action.payload;
    },
    resetStep: () => initialStepState,
  },
});

export const { setStepItems, resetStep } = stepSlice.actions;
export default stepSlice.reducer;
