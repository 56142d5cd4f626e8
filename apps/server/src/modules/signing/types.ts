import type { Queryable } from '../../db/client.js';

/** The documents a link's steps ask for (one submission per document step). */
export type SubmissionKind = 'invoice' | 'contract' | 'patient_id' | 'payor_id' | 'payment_authorization';

export type SignatureMethod = 'draw' | 'type' | 'upload';

/** What the step list needs from a signing provider for one document step. */
export interface CreateSubmissionInput {
  linkId: string;
  linkStepId: number;
  kind: SubmissionKind;
  /** A contract submission's contract per language, fixed when it is created (decision 0168). */
  contractSnapshot?: ContractSnapshot;
}

/**
 * A signing provider: the built-in service (this module) or, later, a hosted one (DocuSeal, Jotform). The product
 * relies on exactly these promises; docs/signing.md spells out what an adapter must do to keep them.
 */
export interface SigningProvider {
  readonly name: string;
  /** The origin the frame's `submission-completed` message comes from (the app's allowed message origin). */
  readonly origin: string;
  /**
   * Creates the submission for one document step inside the caller's transaction and returns the URL the app frames.
   * The URL must be unguessable and open this step's document only.
   */
  createSubmission(tx: Queryable, input: CreateSubmissionInput): Promise<{ submissionId: string; documentUrl: string }>;
  /** Server-side truth: has the signer finished this submission? (Never the browser's word.) */
  isCompleted(tx: Queryable, submissionId: string): Promise<boolean>;
  /** The signed PDF for staff, or null while pending. */
  signedPdf(tx: Queryable, submissionId: string): Promise<Uint8Array | null>;
}

/** Where a contract comes from: the console's upload, CONTRACT_PDF_PATH(_ES), or the bundled sample (decision 0168). */
export type ContractSource = 'upload' | 'env' | 'sample';

/** What a contract submission keeps of one language's contract (submission.contract_snapshot). */
export interface ContractSnapshotEntry {
  key: string;
  sha256: string;
  /** The English contract shown to a Spanish reader (with the note). */
  fallback: boolean;
  source: ContractSource;
}
export type ContractSnapshot = Record<'en' | 'es', ContractSnapshotEntry>;
