import { totpCode, totpStep } from './totp.js';

/**
 * A staff member signed in to a product in production mode, where two-factor sign-in is required of everyone: the
 * console's own calls (e-mail + password → a session limited to enrolment → TOTP setup → enable with a code), then the
 * CLI's token sign-in (`POST /api/admin/login` with a recovery code). What a person does once in the console.
 */
export interface StaffSession {
  email: string;
  password: string;
  /** The authenticator secret (base32) the console showed at enrolment. */
  totpSecret: string;
  /** Unused recovery codes (each works once instead of a code). */
  recoveryCodes: string[];
  /** A 12-hour bearer token for /api/admin (the CLI's PAYLINK_ADMIN_TOKEN). */
  token: string;
  /**
   * A fresh authenticator code for a sign-in (the console's code field or /api/admin/login). The server takes each
   * 30-second step's code once, so this waits for the next step when this session already used the current one.
   */
  nextCode(): Promise<string>;
}

async function json(r: Response, what: string): Promise<Record<string, unknown>> {
  const text = await r.text();
  if (!r.ok) throw new Error(`${what} answered ${r.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

export async function enrolStaff(baseUrl: string, creds: { email: string; password: string }): Promise<StaffSession> {
  const origin = new URL(baseUrl).origin;
  const consoleHeaders = (cookie?: string) => ({
    'content-type': 'application/json',
    'x-paylink-console': '1',
    origin,
    ...(cookie ? { cookie } : {}),
  });
  const signIn = await fetch(`${baseUrl}/api/admin/session`, {
    method: 'POST',
    headers: consoleHeaders(),
    body: JSON.stringify(creds),
  });
  const session = await json(signIn, 'POST /api/admin/session');
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (session.status !== 'signed_in' || !cookie) {
    throw new Error(`The console sign-in did not give a session: ${JSON.stringify(session)}`);
  }
  const setup = await json(
    await fetch(`${baseUrl}/api/admin/me/2fa/setup`, { method: 'POST', headers: consoleHeaders(cookie), body: '{}' }),
    'POST /api/admin/me/2fa/setup',
  );
  const totpSecret = String(setup.secret);
  let lastStep = totpStep();
  const enabled = await json(
    await fetch(`${baseUrl}/api/admin/me/2fa/enable`, {
      method: 'POST',
      headers: consoleHeaders(cookie),
      body: JSON.stringify({ code: totpCode(totpSecret, lastStep) }),
    }),
    'POST /api/admin/me/2fa/enable',
  );
  const recoveryCodes = [...(enabled.recoveryCodes as string[])];
  const login = await json(
    await fetch(`${baseUrl}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...creds, code: recoveryCodes.shift() }),
    }),
    'POST /api/admin/login',
  );
  return {
    ...creds,
    totpSecret,
    recoveryCodes,
    token: String(login.token),
    async nextCode() {
      while (totpStep() <= lastStep) await new Promise((r) => setTimeout(r, 250));
      lastStep = totpStep();
      return totpCode(totpSecret, lastStep);
    },
  };
}
