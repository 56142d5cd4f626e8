import type { RawBuilder } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db, Queryable } from './db/client.js';
import type { StaffAccess } from './http/require-staff.js';
import type { SessionKeys } from './http/session-tokens.js';
import type { Actor } from './lib/audit.js';
import type { PracticeInfo } from './messages/index.js';
import type { GatewayTransaction } from './providers/gateway/types.js';
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
  /** What links asks the payments module, which sits above it (payments/link-payments.ts). */
  linkPayments: LinkPayments;
  /** What payments asks the plans module, which sits above it (plans/link-plans.ts). */
  linkPlans: LinkPlans;
  /** How the staff guard recognises tokens and console sessions (admin/staff-access.ts). */
  staffAccess: StaffAccess;
}

/** The signing module's answers about a link's documents (implemented in signing/prepare-step-documents.ts). */
export interface StepDocuments {
  /**
   * Creates the missing document of each document step and sets its URL (through links' setStepDocumentUrls); gives
   * back the URLs it wrote, by step id (null: the step's URL was cleared).
   */
  prepare(tx: Queryable, o: { linkId: string }): Promise<ReadonlyMap<number, string | null>>;
  /**
   * Whether the step's document is signed (steps without a document are). `routePath`: the step's route as the caller
   * just read it from this link's steps in the same transaction (saves reading it again, issue 30).
   */
  isComplete(tx: Queryable, o: { linkId: string; linkStepId: number; routePath?: string }): Promise<boolean>;
  /**
   * `isComplete` as an SQL expression (no statement of its own), for a caller that reads it beside other facts in one
   * statement (moveStep, issue 30). False for a step that is not the link's.
   */
  completeSql(o: { linkId: string; linkStepId: number }): RawBuilder<boolean>;
}

/**
 * Payments sit above links: links asks them through this port, as it asks signing through StepDocuments. A patient
 * who returns is reconciled first (a charged patient lands on the end state), and a payment choice is refused while a
 * gateway token for the old amount may still charge the card.
 */
export interface LinkPayments {
  reconcileLink(o: { linkId: string; actor: Actor }): Promise<unknown>;
  hasLiveToken(q: Queryable, linkId: string): Promise<boolean>;
}

/**
 * Plans sit above payments (a plan starts with the deposit): payments asks them through this port (decision 0207).
 * A plan link's deposit needs the patient's card-on-file agreement, asks the gateway to store the card, and its
 * approval seals the card and stores the instalments in the approval's own transaction.
 */
export interface LinkPlans {
  /** null for a link without a plan (payments go on exactly as before). */
  depositTerms(q: Queryable, linkId: string): Promise<DepositTerms | null>;
  /** Answers whether the link has a plan (false: receiptTerms would answer null, so it is not asked). */
  onDepositApproved(tx: Queryable, o: DepositApproval): Promise<boolean>;
  /** What a plan deposit's receipt adds (issue 28); null for a link without a plan or before its deposit. */
  receiptTerms(q: Queryable, linkId: string, practice: PracticeInfo): Promise<PlanReceiptTerms | null>;
}

export interface PlanReceiptTerms {
  /** The instalments still to charge, oldest first. */
  installments: { dueOn: string; amountCents: number }[];
  /** The card-on-file agreement as the patient accepted it, in the language they accepted it in. */
  agreement: { version: string; title: string; paragraphs: string[] } | null;
}

export interface DepositTerms {
  /** The deposit's sale stores the card (ssl_get_token, ssl_add_token); it then needs the agreement. */
  storeCard: boolean;
  /** The patient accepted the current card-on-file agreement (CARD_ON_FILE_AGREEMENT_VERSION). */
  agreementAccepted: boolean;
}

export interface DepositApproval {
  actor: Actor;
  linkId: string;
  /** The payment attempt whose sale was approved (the customer-initiated sale that stored the card). */
  attemptId: string;
  paidCents: number;
  /** The gateway's verified transaction (its token, expiry, approval code and network data). */
  transaction: GatewayTransaction;
}
