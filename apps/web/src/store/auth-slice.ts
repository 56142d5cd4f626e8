/**
 * Slice `auth` (spec section 3): access_token (the session JWT, kept in memory only: a persist transform blanks it,
 * and after a reload the httpOnly `jwt_authorization` cookie carries the session), auth_email, exp_Date (ISO expiry).
 *
 * Actions: signedIn({ token, expiresAt, email? }); sessionRefreshed({ token, expiresAt }); signOut().
 * isSessionValid(auth, now) is what the guards use.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface AuthState {
  access_token: string;
  auth_email: string;
  exp_Date: string;
}

export const initialAuthState: AuthState = { access_token: '', auth_email: '', exp_Date: '' };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; expiresAt: string; email?: string }>) {
      state.access_token = action.payload.token;
      state.exp_Date = action.payload.expiresAt;
      state.auth_email = action.payload.email ?? state.auth_email;
    },
    sessionRefreshed(state, action: PayloadAction<{ token: string; expiresAt: string }>) {
      state.access_token = action.payload.token;
      state.exp_Date = action.payload.expiresAt;
    },
    signOut: () => initialAuthState,
  },
});

export const { signedIn, sessionRefreshed, signOut } = authSlice.actions;
export default authSlice.reducer;

/** A session is valid while its expiry is in the future. */
export function isSessionValid(auth: AuthState, now = Date.now()): boolean {
  const exp = Date.parse(auth.exp_Date);
  return Number.isFinite(exp) && exp > now;
}
