/**
 * Slice `patient` (spec section 3): a list of patient records; the first item is the one used (selectPatient).
 * A record is the patient-info answer (shared PatientInfo) with the payment choice merged in once it is made:
 * paymentType (1 deposit, 2 payment), paymentSource (1 patient, 2 payor), paymentAmount (whole dollars).
 *
 * Actions: setPatient(info) replaces the list with [info]; updatePatient(partial) merges into the first record;
 * resetPatient() empties it.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PatientInfo } from '@paylink/shared';

export type PatientRecord = PatientInfo;
export interface PatientState {
  patient: PatientRecord[];
}

export const initialPatientState: PatientState = { patient: [] };

const patientSlice = createSlice({
  name: 'patient',
  initialState: initialPatientState,
  reducers: {
    setPatient(state, action: PayloadAction<PatientRecord>) {
      state.patient = [action.payload];
    },
    updatePatient(state, action: PayloadAction<Partial<PatientRecord>>) {
      const first = state.patient[0];
      if (first) Object.assign(first, action.payload);
    },
    resetPatient: () => initialPatientState,
  },
});

export const { setPatient, updatePatient, resetPatient } = patientSlice.actions;
export default patientSlice.reducer;

/** The patient record in use (the first item), or undefined before patient data is loaded. */
export const selectPatient = (s: { patient: PatientState }): PatientRecord | undefined => s.patient.patient[0];
