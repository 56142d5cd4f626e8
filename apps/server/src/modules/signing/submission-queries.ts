import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import type { ContractSnapshot, SignatureMethod, SubmissionKind } from './types.js';

export interface SubmissionRow {
  id: string;
  token_hash: string;
  link_id: string;
  link_step_id: number | null;
  kind: SubmissionKind;
  provider: string;
  status: 'pending' | 'completed';
  signer_name: string | null;
  signature_method: SignatureMethod | null;
  completed_at: Date | null;
  ip: string | null;
  user_agent: string | null;
  original_sha256: string | null;
  signed_sha256: string | null;
  signed_storage_key: string | null;
  typed_signature: string | null;
  /** Contract submissions: each language's contract, fixed when prepared (contracts.ts). */
  contract_snapshot: ContractSnapshot | null;
  created_at: Date;
}

export interface SubmissionFileRow {
  id: string;
  submission_id: string;
  link_id: string;
  side: 'front' | 'back';
  original_name: string;
  original_mime: string;
  content_sha256: string;
  mime: 'image/jpeg' | 'image/png' | 'application/pdf';
  size_bytes: number;
  storage_key: string;
  created_at: Date;
}

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Tokens look like base64url of 32 random bytes; anything else is not looked up at all. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function insertSubmission(
  q: Queryable,
  s: { tokenHash: string; linkId: string; linkStepId: number; kind: SubmissionKind },
): Promise<string> {
  const r = await q.query<{ id: string }>(
    `insert into submission (token_hash, link_id, link_step_id, kind) values ($1, $2, $3, $4) returning id`,
    [s.tokenHash, s.linkId, s.linkStepId, s.kind],
  );
  return r.rows[0]!.id;
}

export async function findSubmissionByToken(
  q: Queryable,
  token: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SubmissionRow | null> {
  if (!TOKEN.test(token)) return null;
  const r = await q.query<SubmissionRow>(
    `select * from submission where token_hash = $1${opts.forUpdate ? ' for update' : ''}`,
    [sha256Hex(token)],
  );
  return r.rows[0] ?? null;
}

export async function findSubmission(q: Queryable, id: string): Promise<SubmissionRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const r = await q.query<SubmissionRow>('select * from submission where id = $1', [id]);
  return r.rows[0] ?? null;
}

export async function submissionForStep(q: Queryable, linkStepId: number): Promise<SubmissionRow | null> {
  const r = await q.query<SubmissionRow>('select * from submission where link_step_id = $1', [linkStepId]);
  return r.rows[0] ?? null;
}

export async function listLinkSubmissions(q: Queryable, linkId: string): Promise<SubmissionRow[]> {
  const r = await q.query<SubmissionRow>(
    `select s.* from submission s left join link_step ls on ls.id = s.link_step_id
     where s.link_id = $1 order by ls.position nulls last, s.created_at, s.id`,
    [linkId],
  );
  return r.rows;
}

export async function markSubmissionCompleted(
  q: Queryable,
  s: {
    id: string;
    signerName: string;
    method: SignatureMethod;
    ip: string | null;
    userAgent: string | null;
    originalSha256: string;
    signedSha256: string;
    signedStorageKey: string;
    completedAt: Date;
    typedSignature?: string;
  },
): Promise<void> {
  await q.query(
    `update submission set status = 'completed', signer_name = $2, signature_method = $3, ip = $4, user_agent = $5,
       original_sha256 = $6, signed_sha256 = $7, signed_storage_key = $8, completed_at = $9, typed_signature = $10,
       updated_at = now()
     where id = $1 and status = 'pending'`,
    [
      s.id,
      s.signerName,
      s.method,
      s.ip,
      s.userAgent,
      s.originalSha256,
      s.signedSha256,
      s.signedStorageKey,
      s.completedAt,
      s.typedSignature ?? null,
    ],
  );
}

/**
 * The signature this signer last typed on another document of the link (issue 16, 10g), offered on their next
 * document. Only from documents the same person signs: the patient's (invoice, contract) or the payor's (authorisation).
 */
export async function previousTypedSignature(
  q: Queryable,
  s: { linkId: string; kinds: readonly SubmissionKind[]; excludeId: string },
): Promise<{ signerName: string; typedSignature: string } | null> {
  const r = await q.query<{ signer_name: string; typed_signature: string }>(
    `select signer_name, typed_signature from submission
     where link_id = $1 and kind = any($2::text[]) and id <> $3 and status = 'completed' and typed_signature is not null
     order by completed_at desc limit 1`,
    [s.linkId, [...s.kinds], s.excludeId],
  );
  const row = r.rows[0];
  return row ? { signerName: row.signer_name, typedSignature: row.typed_signature } : null;
}

export async function listSubmissionFiles(q: Queryable, submissionId: string): Promise<SubmissionFileRow[]> {
  const r = await q.query<SubmissionFileRow>(
    `select * from submission_file where submission_id = $1 order by case side when 'front' then 0 else 1 end`,
    [submissionId],
  );
  return r.rows;
}

export async function findSubmissionFile(
  q: Queryable,
  submissionId: string,
  fileId: string,
): Promise<SubmissionFileRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(fileId)) return null;
  const r = await q.query<SubmissionFileRow>('select * from submission_file where id = $1 and submission_id = $2', [
    fileId,
    submissionId,
  ]);
  return r.rows[0] ?? null;
}

export async function findLinkFileByHash(
  q: Queryable,
  linkId: string,
  contentSha256: string,
): Promise<SubmissionFileRow | null> {
  const r = await q.query<SubmissionFileRow>(
    'select * from submission_file where link_id = $1 and content_sha256 = $2',
    [linkId, contentSha256],
  );
  return r.rows[0] ?? null;
}

export async function insertSubmissionFile(
  q: Queryable,
  f: Omit<SubmissionFileRow, 'id' | 'created_at'> & { id: string },
): Promise<void> {
  await q.query(
    `insert into submission_file (id, submission_id, link_id, side, original_name, original_mime, content_sha256, mime,
       size_bytes, storage_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      f.id,
      f.submission_id,
      f.link_id,
      f.side,
      f.original_name,
      f.original_mime,
      f.content_sha256,
      f.mime,
      f.size_bytes,
      f.storage_key,
    ],
  );
}

export async function deleteSubmissionFile(q: Queryable, fileId: string): Promise<void> {
  await q.query('delete from submission_file where id = $1', [fileId]);
}
