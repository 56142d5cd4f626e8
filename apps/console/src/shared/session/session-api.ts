/**
 * The staff session (cookie) and two-factor endpoints: the one place that knows their paths. Everything else uses
 * these functions and useSession().
 */
import { call } from '../api/client';
import {
  consoleEndpoints,
  type ChangePasswordBody,
  type ConsoleSession,
  type SignInBody,
  type TwoFactorStatus,
} from '../api/contract';

export type SessionInfo = ConsoleSession;
export const SESSION_QUERY_KEY = ['session'] as const;

export const fetchSession = () => call(consoleEndpoints.session);

/** Password first; with two-factor on, the server answers code_required and the same call is made again with code. */
export const signIn = (body: SignInBody) => call(consoleEndpoints.signIn, { body });

export const signOut = () => call(consoleEndpoints.signOut);
export const signOutEverywhere = () => call(consoleEndpoints.signOutEverywhere);

export type { TwoFactorStatus };
export const fetchTwoFactorStatus = () => call(consoleEndpoints.twoFactorStatus);
export const startTwoFactorEnrolment = () => call(consoleEndpoints.twoFactorSetup);
export const enableTwoFactor = (body: { code: string }) => call(consoleEndpoints.twoFactorEnable, { body });
export const newRecoveryCodes = (body: { code: string }) => call(consoleEndpoints.recoveryCodes, { body });
export type TwoFactorSetup = Awaited<ReturnType<typeof startTwoFactorEnrolment>>;

/** Passwords (issue 29): change my own, "forgot password" (always the same answer) and the reset link's page. */
export const changePassword = (body: ChangePasswordBody) => call(consoleEndpoints.changePassword, { body });
export const requestPasswordReset = (email: string) => call(consoleEndpoints.requestPasswordReset, { body: { email } });
export const completePasswordReset = (body: { token: string; newPassword: string }) =>
  call(consoleEndpoints.completePasswordReset, { body });
