/**
 * The Redux store (spec section 3). Fixed interface for the whole app:
 *   store, persistor, RootState, AppDispatch, rootReducer, makeStore(opts) (tests).
 * Slices (src/store/*-slice.ts), state key → actions:
 *   step           → setStepItems, resetStep
 *   patient        → setPatient, updatePatient, resetPatient; selectPatient(state)
 *   payment        → setPayment(partial), resetPayment
 *   stepProduction → setSteps(LinkStep[]), updateStepStatus({ linkStepId, linkStepStatusId }), resetStepProduction;
 *                    selectSteps(state), nextRoutePath(steps, route), stepFor(steps, route)
 *   continue       → setContinue(boolean), resetContinue
 *   auth           → signedIn, sessionRefreshed, signOut; isSessionValid(auth)
 *   link           → setLink, resetLink
 * Persisted encrypted under one root key (src/app/persist.ts); the session token is never written; card data is
 * never stored in any slice. clearSessionData() resets everything but auth and link.
 */
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
  persistReducer,
  persistStore,
  type Storage,
} from 'redux-persist';
import { setAccessTokenGetter } from '../lib/api-client';
import authReducer, { initialAuthState } from './auth-slice';
import continueReducer, { initialContinueState, resetContinue } from './continue-slice';
import linkReducer, { initialLinkState } from './link-slice';
import patientReducer, { initialPatientState, resetPatient } from './patient-slice';
import paymentReducer, { initialPaymentState, resetPayment } from './payment-slice';
import stepProductionReducer, { initialStepProductionState, resetStepProduction } from './step-production-slice';
import stepReducer, { initialStepState, resetStep } from './step-slice';
import { DEFAULT_PERSIST_PASSPHRASE, persistConfig } from './persist';

const rootReducer = combineReducers({
  step: stepReducer,
  patient: patientReducer,
  payment: paymentReducer,
  stepProduction: stepProductionReducer,
  continue: continueReducer,
  auth: authReducer,
  link: linkReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

const initialRootState: RootState = {
  step: initialStepState,
  patient: initialPatientState,
  payment: initialPaymentState,
  stepProduction: initialStepProductionState,
  continue: initialContinueState,
  auth: initialAuthState,
  link: initialLinkState,
};

export function makeStore(opts: { passphrase?: string; storage?: Storage } = {}) {
  const reducer = persistReducer<RootState>(
    persistConfig<RootState>({
      passphrase: opts.passphrase ?? (import.meta.env.VITE_PERSIST_KEY || DEFAULT_PERSIST_PASSPHRASE),
      initialState: initialRootState,
      ...(opts.storage ? { storage: opts.storage } : {}),
    }),
    rootReducer,
  );
  const store = configureStore({
    reducer,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } }),
    devTools: import.meta.env.DEV,
  });
  const persistor = persistStore(store);
  return { store, persistor };
}

export const { store, persistor } = makeStore();
setAccessTokenGetter(() => store.getState().auth.access_token || undefined);

export type AppStore = typeof store;
export type AppDispatch = typeof store.dispatch;

/** "Clear persisted stores": everything a previous visit left, except who is signed in to which link. */
export function clearSessionData(dispatch: AppDispatch) {
  dispatch(resetStep());
  dispatch(resetPatient());
  dispatch(resetPayment());
  dispatch(resetStepProduction());
  dispatch(resetContinue());
}
