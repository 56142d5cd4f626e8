import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { buildSignedPdf, type SignedPdfInput } from './build-signed-pdf.js';
import type { CleanResult } from './clean-contract-pdf.js';
import type { ContractPara } from './contract-text.js';
import { UploadRefused } from './normalise-upload.js';
import type normaliseTask from './document-worker.js';

/**
 * Image and PDF work off the event loop (issue 11, finding 2; issue 26): one small pool of worker threads (piscina)
 * shared by the process, for ID uploads, contract uploads and signed copies. The file header was already checked for
 * its pixel count in the worker before any decode.
 */
let pool: Piscina | undefined;

/**
 * The process's Node arguments a worker thread may take: only the module-resolution conditions (`--conditions`,
 * `-C`), which the compiled server needs to find `@paylink/shared`'s build. Node refuses V8 flags such as
 * `--liftoff-only` or `--max-old-space-size` in a worker's execArgv (ERR_WORKER_INVALID_EXEC_ARGV), and `npm run serve`
 * starts the server with them (scripts/server-entry.mjs).
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a.startsWith('--conditions=') || (a.startsWith('-C') && a.length > 2)) kept.push(a);
    else if ((a === '--conditions' || a === '-C') && i + 1 < execArgv.length) kept.push(a, execArgv[++i]!);
  }
  return kept;
}

function workerPool(): Piscina {
  if (pool) return pool;
  // Compiled (scripts/build-server.ts) the worker is JavaScript and takes the process's resolution conditions; from
  // the sources it is TypeScript and needs tsx's loader.
  const compiled = import.meta.url.endsWith('.js');
  const filename = fileURLToPath(new URL(`./document-worker.${compiled ? 'js' : 'ts'}`, import.meta.url));
  pool = new Piscina({
    filename,
    execArgv: compiled ? workerExecArgv(process.execArgv) : ['--import', 'tsx'],
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 30_000,
    // Bounded: beyond this many queued files, refuse rather than pile up memory.
    maxQueue: 32,
  });
  return pool;
}

const queueFull = (err: unknown) => (err as Error).message?.includes('queue is at limit');

export async function normaliseInWorker(bytes: Uint8Array) {
  let r: Awaited<ReturnType<typeof normaliseTask>>;
  try {
    r = (await workerPool().run(bytes)) as Awaited<ReturnType<typeof normaliseTask>>;
  } catch (err) {
    if (queueFull(err)) throw new UploadRefused('busy');
    throw err;
  }
  if (!r.ok) throw new UploadRefused(r.problem);
  return { originalMime: r.originalMime, mime: r.mime, bytes: r.bytes };
}

/** A practice's contract upload, cleaned of active content (clean-contract-pdf.ts). */
export async function cleanContractInWorker(bytes: Uint8Array, maxPages: number): Promise<CleanResult> {
  return (await workerPool().run({ bytes, maxPages }, { name: 'cleanContract' })) as CleanResult;
}

/**
 * The signed copy of a document. With the queue full it is built here instead: a signature is never refused for load,
 * and the contract's page cap (CONTRACT_MAX_PAGES) bounds the pause.
 */
export async function signedPdfInWorker(input: SignedPdfInput): Promise<Uint8Array> {
  try {
    return (await workerPool().run(input, { name: 'signedPdf' })) as Uint8Array;
  } catch (err) {
    if (queueFull(err)) return buildSignedPdf(input);
    throw err;
  }
}

/**
 * The contract's reflowed text for the frame (contract-text.ts), once per contract per process (the same file serves
 * every link that got it). Null when it has none or could not be made now (queue full, a damaged file): the frame then
 * reads the text in the browser, as before.
 */
const contractTexts = new Map<string, Promise<ContractPara[] | null>>();
export function contractTextInWorker(bytes: Uint8Array, sha256: string): Promise<ContractPara[] | null> {
  let entry = contractTexts.get(sha256);
  if (!entry) {
    entry = (workerPool().run({ bytes }, { name: 'contractTextTask' }) as Promise<ContractPara[] | null>).catch(() => {
      contractTexts.delete(sha256);
      return null;
    });
    if (contractTexts.size >= 32) contractTexts.delete(contractTexts.keys().next().value!);
    contractTexts.set(sha256, entry);
  }
  return entry;
}
