import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { StaffAccess } from './http/require-staff.js';
import type { StepDocuments } from './modules/links/link-lifecycle.js';
import type { SessionKeys } from './modules/sessions/session-tokens.js';
import type { Providers } from './providers/index.js';

/** Everything a route or use case may need, built once in main.ts (or a test) and passed down. */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  sessionKeys: SessionKeys;
  providers: Providers;
  /** The signing module's document facts for the link lifecycle (signing/prepare-step-documents.ts). */
  stepDocuments: StepDocuments;
  /** How the staff guard recognises tokens and console sessions (admin/staff-access.ts). */
  staffAccess: StaffAccess;
}
