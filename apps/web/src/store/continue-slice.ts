/**
 * Slice `continue` (spec section 3): isContinue is true after the continue check restored a previous session; the
 * first step page entered clears it (setContinue(false)) instead of setting its status to 2.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface ContinueState {
  isContinue: boolean;
}

export const initialContinueState: ContinueState = { isContinue: false };

const continueSlice = createSlice({
  name: 'continue',
  initialState: initialContinueState,
  reducers: {
    setContinue(state, action: PayloadAction<boolean>) {
      state.isContinue = action.payload;
    },
    resetContinue: () => initialContinueState,
  },
});

export const { setContinue, resetContinue } = continueSlice.actions;
export default continueSlice.reducer;
