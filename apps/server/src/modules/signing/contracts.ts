import fs from 'node:fs/promises';
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { SYSTEM_ACTOR, writeAudit, type Actor } from '../../lib/audit.js';
import type { DocumentStorage } from '../../providers/storage/types.js';
import { SAMPLE_CONTRACT, SAMPLE_CONTRACT_ES } from './documents.js';
import { cleanContractPdf, type CleanProblem, type RemovedKind } from './clean-contract-pdf.js';
import { cleanContractInWorker } from './document-worker-pool.js';
import { ownBytes } from './pdf-writer.js';
import type { Lang } from './sign-texts.js';
import {
  deletePracticeContract,
  listPracticeContractRows,
  staffNames,
  upsertPracticeContract,
  type PracticeContractRow,
} from './contract-queries.js';
import { sha256Hex, type SubmissionRow } from './submission-queries.js';
import type { ContractSnapshot, ContractSource } from './types.js';

/**
 * The practice's contract per language (docs/decisions/0165, 0168). Precedence for each language: the console's upload,
 * else CONTRACT_PDF_PATH(_ES), else the bundled sample; a Spanish reader of a practice that gave only an English
 * contract (uploaded or env) gets that one with the visible Spanish note (`fallback`).
 */
const CONTRACT_LANGS = ['en', 'es'] as const;

/** Where the contract a reader of one language gets comes from, before its bytes are read. */
export interface ContractRef {
  source: ContractSource;
  /** The English contract shown to a Spanish reader: the page says so in Spanish. */
  fallback: boolean;
  upload?: PracticeContractRow;
  path?: string;
}

export interface ResolvedContract {
  bytes: Uint8Array;
  sha256: string;
  fallback: boolean;
}

type EnvPaths = Pick<Config, 'CONTRACT_PDF_PATH' | 'CONTRACT_PDF_PATH_ES'>;

const contractKey = (sha256: string) => `contracts/${sha256}.pdf`;

async function listPracticeContracts(q: Queryable): Promise<Partial<Record<Lang, PracticeContractRow>>> {
  return byLang(await listPracticeContractRows(q));
}

const byLang = (rows: readonly PracticeContractRow[]): Partial<Record<Lang, PracticeContractRow>> =>
  Object.fromEntries(rows.map((row) => [row.lang, row]));

/** Pure precedence, given the uploads and the env (tested through the routes and the signing pages). */
function pickContract(uploads: Partial<Record<Lang, PracticeContractRow>>, config: EnvPaths, lang: Lang): ContractRef {
  const english = (fallback: boolean): ContractRef | null =>
    uploads.en
      ? { source: 'upload', fallback, upload: uploads.en }
      : config.CONTRACT_PDF_PATH
        ? { source: 'env', fallback, path: config.CONTRACT_PDF_PATH }
        : null;
  if (lang === 'es') {
    if (uploads.es) return { source: 'upload', fallback: false, upload: uploads.es };
    if (config.CONTRACT_PDF_PATH_ES) return { source: 'env', fallback: false, path: config.CONTRACT_PDF_PATH_ES };
    return english(true) ?? { source: 'sample', fallback: false, path: SAMPLE_CONTRACT_ES };
  }
  return english(false) ?? { source: 'sample', fallback: false, path: SAMPLE_CONTRACT };
}

export async function contractInEffect(q: Queryable, config: EnvPaths, lang: Lang): Promise<ContractRef> {
  return pickContract(await listPracticeContracts(q), config, lang);
}

async function storedBytes(storage: DocumentStorage, key: string, sha256: string): Promise<Uint8Array> {
  const bytes = await storage.get(key);
  // A contract that is gone or altered in storage must not be shown as the one recorded: fail loudly (500, logged).
  if (!bytes || sha256Hex(bytes) !== sha256) throw new Error(`Stored contract missing or altered: ${key}`);
  return ownBytes(bytes);
}

export async function readContract(storage: DocumentStorage, ref: ContractRef): Promise<ResolvedContract> {
  if (ref.upload) {
    const bytes = await storedBytes(storage, ref.upload.storage_key, ref.upload.sha256);
    return { bytes, sha256: ref.upload.sha256, fallback: ref.fallback };
  }
  const bytes = ownBytes(await fs.readFile(ref.path!));
  return { bytes, sha256: sha256Hex(bytes), fallback: ref.fallback };
}

/** Keys already written by this process (contract blobs are content-addressed and never deleted, so it stays true). */
const knownKeys = new WeakMap<DocumentStorage, Set<string>>();

/**
 * Fixes, for a contract submission being prepared, the contract of each language: an env or sample file is copied into
 * storage under its hash, so a later upload or a changed env file alters neither an open nor a signed contract.
 */
export async function snapshotContracts(
  /** The practice's uploads (practice_contract), as the caller read them in its transaction. */
  rows: readonly PracticeContractRow[],
  config: EnvPaths,
  storage: DocumentStorage,
): Promise<ContractSnapshot> {
  const uploads = byLang(rows);
  const out = {} as ContractSnapshot;
  for (const lang of CONTRACT_LANGS) {
    const ref = pickContract(uploads, config, lang);
    if (ref.upload) {
      out[lang] = { key: ref.upload.storage_key, sha256: ref.upload.sha256, fallback: ref.fallback, source: 'upload' };
      continue;
    }
    const { bytes, sha256 } = await readContract(storage, ref);
    const key = contractKey(sha256);
    let known = knownKeys.get(storage);
    if (!known) knownKeys.set(storage, (known = new Set()));
    if (!known.has(key)) {
      await storage.put(key, bytes, 'application/pdf');
      known.add(key);
    }
    out[lang] = { key, sha256, fallback: ref.fallback, source: ref.source };
  }
  return out;
}

/** The contract a reader of `lang` reads and signs on this submission: its snapshot, else (older rows) the current one. */
export async function contractForSubmission(
  q: Queryable,
  ctx: { config: EnvPaths; storage: DocumentStorage },
  submission: Pick<SubmissionRow, 'contract_snapshot'>,
  lang: Lang,
): Promise<ResolvedContract> {
  const snap = submission.contract_snapshot?.[lang];
  if (snap) {
    return {
      bytes: await storedBytes(ctx.storage, snap.key, snap.sha256),
      sha256: snap.sha256,
      fallback: snap.fallback,
    };
  }
  return readContract(ctx.storage, await contractInEffect(q, ctx.config, lang));
}

// ---- The console's uploads ----

export type ContractProblem =
  'not_pdf' | 'too_large' | 'unreadable' | 'no_pages' | 'encrypted' | 'empty' | 'too_many_pages' | 'active_content';

export class ContractRefused extends AppError {
  constructor(
    readonly problem: ContractProblem,
    message: string,
  ) {
    super(`contract_${problem}`, message);
    this.name = 'ContractRefused';
  }
}

const REFUSALS: Record<CleanProblem, (limits: { maxPages: number }) => string> = {
  unreadable: () => 'The PDF could not be read. Export it again and upload the new file.',
  encrypted: () => 'The PDF is password-protected. Upload a copy without a password.',
  no_pages: () => 'The PDF has no pages.',
  too_many_pages: ({ maxPages }) => `The PDF has more than ${maxPages} pages (CONTRACT_MAX_PAGES).`,
  active_content: () =>
    'The PDF holds content that could run on a reader’s device and it could not be removed. Print it to a new PDF ' +
    '(Print → Save as PDF) and upload that file.',
};

/**
 * An uploaded contract, made safe before anything is stored: a real PDF within the size and page limits, rebuilt
 * without active content in a worker thread (clean-contract-pdf.ts). `removed` says what was taken off.
 */
export async function cleanUploadedContract(
  bytes: Uint8Array,
  limits: { maxMb: number; maxPages: number },
): Promise<{ bytes: Uint8Array; pageCount: number; removed: RemovedKind[] }> {
  if (bytes.length === 0) throw new ContractRefused('empty', 'Choose a PDF file to upload.');
  if (bytes.length > limits.maxMb * 1024 * 1024) {
    throw new ContractRefused('too_large', `The file is larger than ${limits.maxMb} MB.`);
  }
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new ContractRefused('not_pdf', 'The file is not a PDF. Upload the contract as a PDF file.');
  }
  const r = await cleanContractInWorker(bytes, limits.maxPages);
  if (!r.ok) throw new ContractRefused(r.problem, REFUSALS[r.problem](limits));
  return { bytes: r.bytes, pageCount: r.pageCount, removed: r.removed };
}

/** File names are shown back to staff: printable, short, no path. */
export function cleanFileName(name: string | undefined, lang: Lang): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return (clean || `contract-${lang}.pdf`).slice(0, 200);
}

export async function setPracticeContract(
  q: Queryable,
  storage: DocumentStorage,
  o: {
    lang: Lang;
    bytes: Uint8Array;
    fileName: string;
    pageCount: number;
    removed: RemovedKind[];
    userId: string | null;
    actor: Actor;
    /** The start-up cleaning of an older upload is recorded as such. */
    action?: 'practice.contract_uploaded' | 'practice.contract_cleaned';
  },
): Promise<void> {
  const sha256 = sha256Hex(o.bytes);
  const key = contractKey(sha256);
  // Content-addressed: re-uploading a file writes the same key; the blob is never deleted (submissions point at it).
  await storage.put(key, o.bytes, 'application/pdf');
  const before = (await listPracticeContracts(q))[o.lang] ?? null;
  await upsertPracticeContract(q, {
    lang: o.lang,
    storage_key: key,
    sha256,
    file_name: o.fileName,
    size_bytes: o.bytes.length,
    page_count: o.pageCount,
    uploaded_by: o.userId,
  });
  await writeAudit(q, {
    ...o.actor,
    action: o.action ?? 'practice.contract_uploaded',
    details: {
      lang: o.lang,
      fileName: o.fileName,
      sizeBytes: o.bytes.length,
      pageCount: o.pageCount,
      sha256,
      removed: o.removed,
      replaced: before ? { fileName: before.file_name, sha256: before.sha256 } : null,
    },
  });
}

/** Removes the upload of one language (back to the env's file or the sample). False when there was none. */
export async function removePracticeContract(q: Queryable, o: { lang: Lang; actor: Actor }): Promise<boolean> {
  const removed = await deletePracticeContract(q, o.lang);
  if (!removed) return false;
  await writeAudit(q, {
    ...o.actor,
    action: 'practice.contract_removed',
    details: { lang: o.lang, fileName: removed.file_name, sha256: removed.sha256 },
  });
  return true;
}

export interface ContractStatus {
  lang: Lang;
  source: ContractSource;
  /** Spanish readers get the English contract with a note. */
  fallback: boolean;
  upload: {
    fileName: string;
    sizeBytes: number;
    pageCount: number;
    sha256: string;
    uploadedAt: string;
    uploadedBy: string | null;
  } | null;
}

/** What the console shows: for each language, which contract readers get now (new links) and the upload, if any. */
export async function contractStatuses(q: Queryable, config: EnvPaths): Promise<ContractStatus[]> {
  const uploads = await listPracticeContracts(q);
  const who = await staffNames(
    q,
    Object.values(uploads).flatMap((u) => (u?.uploaded_by ? [u.uploaded_by] : [])),
  );
  return CONTRACT_LANGS.map((lang) => {
    const ref = pickContract(uploads, config, lang);
    const u = uploads[lang];
    return {
      lang,
      source: ref.source,
      fallback: ref.fallback,
      upload: u
        ? {
            fileName: u.file_name,
            sizeBytes: u.size_bytes,
            pageCount: u.page_count,
            sha256: u.sha256,
            uploadedAt: new Date(u.uploaded_at).toISOString(),
            uploadedBy: u.uploaded_by ? (who.get(u.uploaded_by) ?? null) : null,
          }
        : null,
    };
  });
}

/**
 * Uploads stored before contracts were cleaned (issue 26) are cleaned at start: a contract with active content is
 * replaced by its clean copy for new links (audited as the system's); links already prepared keep the one they were
 * given, as with any new upload. Returns the languages replaced.
 */
export async function cleanStoredContracts(db: Db, storage: DocumentStorage): Promise<Lang[]> {
  const replaced: Lang[] = [];
  for (const row of Object.values(await listPracticeContracts(db))) {
    const bytes = await storage.get(row.storage_key);
    if (!bytes) continue;
    // Not refused for its length here: it was accepted before the limit, and refusing now would leave no contract.
    const r = await cleanContractPdf(ownBytes(bytes), { maxPages: Number.MAX_SAFE_INTEGER });
    if (!r.ok || r.removed.length === 0) continue;
    await db.transaction((tx) =>
      setPracticeContract(tx, storage, {
        lang: row.lang,
        bytes: r.bytes,
        fileName: row.file_name,
        pageCount: r.pageCount,
        removed: r.removed,
        userId: row.uploaded_by,
        actor: SYSTEM_ACTOR,
        action: 'practice.contract_cleaned',
      }),
    );
    replaced.push(row.lang);
  }
  return replaced;
}
