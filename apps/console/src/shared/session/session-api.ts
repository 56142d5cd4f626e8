/**
 * The staff session (cookie) and two-factor endpoints: the one place that knows their paths. Everything else uses
 * these functions and useSession().
 */
import { api } from '../api/client';
import type { ConsoleSession, SignInBody, SignInResult } from '../api/contract';

export type SessionInfo = ConsoleSession;
export const SESSION_QUERY_KEY = ['session'] as const;

export const fetchSession = () => api.get<ConsoleSession>('/api/admin/session');

/** Password first; with two-factor on, the server answers code_required and the same call is made again with code. */
export const signIn = (body: SignInBody) => api.post<SignInResult>('/api/admin/session', { body });

export const signOut = () => api.delete<void>('/api/admin/session');
export const signOutEverywhere = () => api.post<void>('/api/admin/session/sign-out-everywhere');

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
}
export const fetchTwoFactorStatus = () => api.get<TwoFactorStatus>('/api/admin/me/2fa');
export const startTwoFactorEnrolment = () =>
  api.post<{ secret: string; otpauthUri: string }>('/api/admin/me/2fa/setup');
export const enableTwoFactor = (body: { code: string }) =>
  api.post<{ recoveryCodes: string[] }>('/api/admin/me/2fa/enable', { body });
export const newRecoveryCodes = (body: { code: string }) =>
  api.post<{ recoveryCodes: string[] }>('/api/admin/me/2fa/recovery-codes', { body });
export type TwoFactorSetup = Awaited<ReturnType<typeof startTwoFactorEnrolment>>;
