/**
 * Slice `payment` (spec section 3): the approved transaction as the gateway reported it, all strings, initially ''.
 * Never holds card data (number, expiry, CVC stay in the payment form's component state).
 *
 * Actions: setPayment(partial) merges fields; resetPayment() restores the empty strings.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface PaymentState {
  ssl_txn_id: string;
  ssl_approval_code: string;
  ssl_last_name: string;
  ssl_result_message: string;
  ssl_token_response: string;
  ssl_transaction_type: string;
  /** Dollars as the gateway returns them, e.g. "500.00". */
  ssl_amount: string;
}

export const initialPaymentState: PaymentState = {
  ssl_txn_id: '',
  ssl_approval_code: '',
  ssl_last_name: '',
  ssl_result_message: '',
  ssl_token_response: '',
  ssl_transaction_type: '',
  ssl_amount: '',
};

const paymentSlice = createSlice({
  name: 'payment',
  initialState: initialPaymentState,
  reducers: {
    setPayment(state, action: PayloadAction<Partial<PaymentState>>) {
      for (const [k, v] of Object.entries(action.payload)) {
        if (k in initialPaymentState && typeof v === 'string') state[k as keyof PaymentState] = v;
      }
    },
    resetPayment: () => initialPaymentState,
  },
});

export const { setPayment, resetPayment } = paymentSlice.actions;
export default paymentSlice.reducer;
