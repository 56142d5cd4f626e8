import type { PlanShape } from '@paylink/shared';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { practiceRows } from '../../lib/practice-rows.js';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
import { changeWithAudit, guardedChangeWithAudit, type AuditEvent } from '../../lib/audit.js';
import type { ContractSnapshot, SignatureMethod, SubmissionKind } from './types.js';
import type { PracticeContractRow } from './contract-queries.js';

/** contract_snapshot: contract submissions fix each language's contract when prepared (contracts.ts). */
export type SubmissionRow = Omit<Row<'submission'>, 'contract_snapshot'> & {
  contract_snapshot: ContractSnapshot | null;
};
export type SubmissionFileRow = Row<'submission_file'>;

/** Rows of submission with the jsonb snapshot typed as what we write into it. */
const submissions = (q: Queryable) => typed(q).selectFrom('submission').selectAll().$castTo<SubmissionRow>();

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Tokens look like base64url of 32 random bytes; anything else is not looked up at all. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export async function insertSubmission(
  q: Queryable,
  s: {
    tokenHash: string;
    linkId: string;
    linkStepId: number;
    kind: SubmissionKind;
    /** A contract's, written with the row (decision 0168). */
    contractSnapshot?: ContractSnapshot;
  },
): Promise<string> {
  const r = await typed(q)
    .insertInto('submission')
    .values({
      token_hash: s.tokenHash,
      link_id: s.linkId,
      link_step_id: s.linkStepId,
      kind: s.kind,
      ...(s.contractSnapshot ? { contract_snapshot: JSON.stringify(s.contractSnapshot) } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function findSubmissionByToken(
  q: Queryable,
  token: string,
  opts: { forUpdate?: boolean } = {},
): Promise<SubmissionRow | null> {
  if (!TOKEN.test(token)) return null;
  const query = submissions(q).where('token_hash', '=', sha256Hex(token));
  return (await (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst()) ?? null;
}

/** Every column of submission, by name: readSubmission's join names them one by one (a new column must be added here). */
const SUBMISSION_COLUMNS: Record<keyof SubmissionRow, true> = {
  completed_at: true,
  contract_snapshot: true,
  created_at: true,
  id: true,
  ip: true,
  kind: true,
  link_id: true,
  link_step_id: true,
  original_sha256: true,
  provider: true,
  signature_method: true,
  signed_sha256: true,
  signed_storage_key: true,
  signer_name: true,
  status: true,
  token_hash: true,
  typed_signature: true,
  updated_at: true,
  user_agent: true,
};
export const SUBMISSION_PREFIX = 'submission.';
export const SUBMISSION_SELECT = Object.keys(SUBMISSION_COLUMNS)
  .map((c) => `s.${c} as "${SUBMISSION_PREFIX}${c}"`)
  .join(', ');

export async function findSubmission(q: Queryable, id: string): Promise<SubmissionRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  return (await submissions(q).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function submissionForStep(q: Queryable, linkStepId: number): Promise<SubmissionRow | null> {
  return (await submissions(q).where('link_step_id', '=', linkStepId).executeTakeFirst()) ?? null;
}

export async function listLinkSubmissions(q: Queryable, linkId: string): Promise<SubmissionRow[]> {
  return typed(q)
    .selectFrom('submission as s')
    .leftJoin('link_step as ls', 'ls.id', 's.link_step_id')
    .selectAll('s')
    .where('s.link_id', '=', linkId)
    .orderBy(sql`ls.position nulls last`)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .$castTo<SubmissionRow>()
    .execute();
}

/**
 * A pending submission of a step only: a completed one is never signed again. With its audit row, in one statement,
 * written only when this statement completed it (it needs no lock: two at once, one completes it, issue 30). Answers
 * whether it did.
 */
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
  audit: AuditEvent,
): Promise<boolean> {
  const change = typed(q)
    .updateTable('submission')
    .set({
      status: 'completed',
      signer_name: s.signerName,
      signature_method: s.method,
      ip: s.ip,
      user_agent: s.userAgent,
      original_sha256: s.originalSha256,
      signed_sha256: s.signedSha256,
      signed_storage_key: s.signedStorageKey,
      completed_at: s.completedAt,
      typed_signature: s.typedSignature ?? null,
      updated_at: sql`now()`,
    })
    .where('id', '=', s.id)
    .where('status', '=', 'pending')
    // resolveSubmission refuses a pending submission without its step (the step list was rebuilt).
    .where('link_step_id', 'is not', null)
    .returning('id')
    .compile();
  return guardedChangeWithAudit(q, change, audit);
}

/** The signed PDF's storage key a submission names (null while pending; undefined: no such submission). */
export async function signedStorageKeyOf(q: Queryable, submissionId: string): Promise<string | null | undefined> {
  const row = await typed(q)
    .selectFrom('submission')
    .select('signed_storage_key')
    .where('id', '=', submissionId)
    .executeTakeFirst();
  return row?.signed_storage_key;
}

export async function listSubmissionFiles(q: Queryable, submissionId: string): Promise<SubmissionFileRow[]> {
  return typed(q)
    .selectFrom('submission_file')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .orderBy(sql`case side when 'front' then 0 else 1 end`)
    .execute();
}

/** With its audit row, in one statement: a refused insert (23505, the same bytes at once) writes no audit row either. */
export async function insertSubmissionFile(
  q: Queryable,
  f: Omit<SubmissionFileRow, 'created_at'>,
  audit: AuditEvent,
): Promise<void> {
  await changeWithAudit(q, typed(q).insertInto('submission_file').values(f).compile(), audit);
}

/**
 * A side's first file, with its audit row, in one statement after the submission's lock (issue 30): inserted only when
 * the link has no file of these bytes and this side none yet (else it answers false and writes nothing: the caller
 * looks at the files, as before). The unique indexes still decide between two at once (23505).
 */
export async function insertSubmissionFileIfNew(
  q: Queryable,
  f: Omit<SubmissionFileRow, 'created_at'> & { created_at: Date },
  audit: AuditEvent,
): Promise<boolean> {
  const change = {
    sql: `insert into submission_file (id, submission_id, link_id, side, original_name, original_mime, content_sha256,
            mime, size_bytes, storage_key, created_at)
          select $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::integer, $10::text,
                 $11::timestamptz
           where not exists (select 1 from submission_file x
                              where (x.link_id = $3::text and x.content_sha256 = $7::text)
                                 or (x.submission_id = $2::uuid and x.side = $4::text))
          returning id`,
    parameters: [
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
      f.created_at,
    ],
  };
  return guardedChangeWithAudit(q, change, audit);
}

/**
 * After the submission's lock (not in the locking statement: its snapshot predates the wait): a file of the link with
 * these bytes, and the file this side has now.
 */
export async function filesForUpload(
  q: Queryable,
  o: { linkId: string; contentSha256: string; submissionId: string; side: 'front' | 'back' },
): Promise<{ same: SubmissionFileRow | null; replaced: SubmissionFileRow | null }> {
  const r = await q.query<{ same: SubmissionFileRow | null; replaced: SubmissionFileRow | null }>(
    `select (select row_to_json(f) from submission_file f where f.link_id = $1 and f.content_sha256 = $2) as same,
            (select row_to_json(f) from submission_file f where f.submission_id = $3 and f.side = $4) as replaced`,
    [o.linkId, o.contentSha256, o.submissionId, o.side],
  );
  return { same: r.rows[0]?.same ?? null, replaced: r.rows[0]?.replaced ?? null };
}

export async function deleteSubmissionFile(q: Queryable, fileId: string): Promise<void> {
  await typed(q).deleteFrom('submission_file').where('id', '=', fileId).execute();
}

/**
 * A link's steps in order, each with its document URL so far and its submission (if any), who pays, and the practice's
 * contract uploads (a contract's snapshot is made from them): what prepareStepDocuments decides from, in one statement
 * (issue 30; it read the steps, the payment, each step's submission and the uploads one by one).
 */
export async function stepsForDocuments(
  q: Queryable,
  linkId: string,
): Promise<{
  steps: {
    id: number;
    route_path: string;
    document_url: string | null;
    submission: Pick<SubmissionRow, 'id' | 'status'> | null;
  }[];
  paymentSourceId: number | null;
  contracts: PracticeContractRow[];
}> {
  const r = await q.query<{
    id: number | null;
    route_path: string;
    document_url: string | null;
    submission_id: string | null;
    submission_status: SubmissionRow['status'] | null;
    payment_source_id: number | null;
    contracts: (Omit<PracticeContractRow, 'uploaded_at'> & { uploaded_at: string })[];
  }>(
    `select st.id, st.route_path, st.document_url, s.id as submission_id, s.status as submission_status,
            p.payment_source_id, one.contracts
       from (select coalesce((select json_agg(c) from practice_contract c), '[]') as contracts) one
       left join payment p on p.link_id = $1
       left join link_step st on st.link_id = $1
       left join submission s on s.link_step_id = st.id
      order by st.position`,
    [linkId],
  );
  return {
    steps: r.rows
      .filter((x) => x.id !== null)
      .map((x) => ({
        id: x.id!,
        route_path: x.route_path,
        document_url: x.document_url,
        submission: x.submission_id ? { id: x.submission_id, status: x.submission_status! } : null,
      })),
    paymentSourceId: r.rows[0]?.payment_source_id ?? null,
    contracts: (r.rows[0]?.contracts ?? []).map((c) => ({ ...c, uploaded_at: new Date(c.uploaded_at) })),
  };
}

/**
 * New submissions, as one multi-row insert to run inside the statement that sets their steps' URLs (links'
 * setStepDocumentUrls): compiled, not run.
 */
export function insertSubmissionsChange(
  q: Queryable,
  rows: readonly {
    tokenHash: string;
    linkId: string;
    linkStepId: number;
    kind: SubmissionKind;
    /** A contract's, written with the row (decision 0168). */
    contractSnapshot?: ContractSnapshot;
  }[],
): { sql: string; parameters: readonly unknown[] } {
  return typed(q)
    .insertInto('submission')
    .values(
      rows.map((s) => ({
        token_hash: s.tokenHash,
        link_id: s.linkId,
        link_step_id: s.linkStepId,
        kind: s.kind,
        contract_snapshot: s.contractSnapshot ? JSON.stringify(s.contractSnapshot) : null,
      })),
    )
    .compile();
}

export async function deleteSubmissions(q: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await typed(q).deleteFrom('submission').where('id', 'in', ids).execute();
}

/** A link's steps in order, with the document URL each has so far. */
export async function listLinkSteps(q: Queryable, linkId: string) {
  return typed(q)
    .selectFrom('link_step')
    .select(['id', 'route_path', 'document_url'])
    .where('link_id', '=', linkId)
    .orderBy('position')
    .execute();
}

export async function findStepRoute(q: Queryable, linkStepId: number, linkId: string): Promise<string | null> {
  const r = await typed(q)
    .selectFrom('link_step')
    .select('route_path')
    .where('id', '=', linkStepId)
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  return r?.route_path ?? null;
}

/** Who pays the link's payment (PaymentSource), or null before a choice. */
export async function paymentSourceOf(q: Queryable, linkId: string): Promise<number | null> {
  const r = await typed(q)
    .selectFrom('payment')
    .select('payment_source_id')
    .where('link_id', '=', linkId)
    .executeTakeFirst();
  return r?.payment_source_id ?? null;
}

export interface PracticeRow {
  name: string;
  support_phone: string;
  support_email: string;
}

/** The practice as documents name it: the console's overrides (practice_override) win over the env-seeded row. */
export async function practiceForDocuments(q: Queryable): Promise<PracticeRow | undefined> {
  const { practice: p, override: o } = await practiceRows(q);
  if (!p) return undefined;
  return {
    name: o?.name ?? p.name,
    support_phone: o?.support_phone ?? p.support_phone,
    support_email: o?.support_email ?? p.support_email,
  };
}

export type PaymentChoice = Pick<Row<'payment'>, 'amount_cents' | 'payment_type_id' | 'payment_source_id'>;

/**
 * A plan link's terms as its invoice states them (issue 41, item 5): the total, the deposit once paid, the plan's
 * shape (to project the charges from the chosen amount before the deposit) and, once the deposit fixed them, the
 * stored charges still to come. Read with the submission (readSubmission's `plan`).
 */
export interface DocumentPlan {
  totalCents: number;
  depositCents: number | null;
  shape: PlanShape;
  /** The charges the deposit fixed (scheduled or notified), or null before the deposit. */
  installments: { dueOn: string; amountCents: number }[] | null;
}
