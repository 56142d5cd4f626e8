import type { Queryable } from '../../db/client.js';
import { USABLE_LINK_SQL, type LinkRow } from '../links/index.js';
import { sameSignerKinds } from './documents.js';
import {
  sha256Hex,
  SUBMISSION_PREFIX,
  SUBMISSION_SELECT,
  type DocumentPlan,
  type PaymentChoice,
  type SubmissionFileRow,
  type SubmissionRow,
} from './submission-queries.js';

/** Tokens look like base64url of 32 random bytes; anything else is not looked up at all. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reads of the signing pages that are audited; each is written by the statement that reads (issue 30). */
export type ReadAction = 'document.viewed' | 'document.original_read' | 'document.file_read';

export interface ReadOptions {
  /** Lock the submission (`for update of s`): the writes that change it (complete, upload) hold it. */
  forUpdate?: boolean;
  /** A completed submission is served too (the page still confirms it was signed). */
  allowCompleted?: boolean;
  /** The link's payment choice (the documents' amount and type). */
  payment?: boolean;
  /** The submission's files, front first. */
  files?: boolean;
  /** The signature this signer last typed on another completed document of the link (pending submissions only). */
  previousTyped?: boolean;
  /** One file of the submission, by id (the file route). */
  fileId?: string;
  /** The audit row of this read, written by the same statement when the read is served (see `served` below). */
  audit?: { action: ReadAction; requestId: string | null; ip: string | null };
}

export interface SubmissionRead {
  submission: SubmissionRow;
  link: LinkRow | null;
  /** The database's clock, which decided whether the audit row was written: resolveSubmission decides by it too. */
  now: Date;
  payment: PaymentChoice | null;
  /** With `payment`, for an invoice: the link's payment plan (null without one, or cancelled). */
  plan: DocumentPlan | null;
  files: SubmissionFileRow[];
  previousTyped: { signerName: string; typedSignature: string } | null;
  file: SubmissionFileRow | null;
}

const ID_KINDS = "('patient_id', 'payor_id')";
const kindList = (kinds: readonly string[]) => `(${kinds.map((k) => `'${k}'`).join(', ')})`;
const PAYOR_KINDS = sameSignerKinds('payor_id');
const PATIENT_KINDS = sameSignerKinds('invoice');

/**
 * Served, in SQL: what resolveSubmission (open-submission.ts) accepts, by the same clock. Keep the two in step:
 * signing.test.ts checks that a refused read writes no audit row, for each refusal.
 */
const servedSql = (allowCompleted: boolean) =>
  `(l.id is not null and ${USABLE_LINK_SQL('l')}
    ${allowCompleted ? '' : "and s.status <> 'completed'"}
    and not (s.status = 'pending' and s.link_step_id is null))`;

/** The audit row's details, as writeAudit wrote them before (jsonb: the keys' order is not kept anyway). */
const AUDIT: Record<ReadAction, { details: string; also: string }> = {
  'document.viewed': {
    details: `jsonb_build_object('submissionId', r."submission.id", 'kind', r."submission.kind",
                                 'status', r."submission.status")`,
    also: '',
  },
  'document.original_read': {
    details: `jsonb_build_object('submissionId', r."submission.id", 'kind', r."submission.kind")`,
    also: `and r."submission.kind" not in ${ID_KINDS}`,
  },
  'document.file_read': {
    details: `jsonb_build_object('submissionId', r."submission.id", 'fileId', f.id, 'side', f.side)`,
    also: '',
  },
};

const built = new Map<string, string>();

function readSql(o: ReadOptions): string {
  const key = [
    o.forUpdate,
    o.allowCompleted,
    o.payment,
    o.files,
    o.previousTyped,
    o.fileId !== undefined,
    o.audit?.action,
  ]
    .map((x) => (x === undefined ? '' : String(x)))
    .join('|');
  const hit = built.get(key);
  if (hit) return hit;
  const ctes = [
    `r as (select ${SUBMISSION_SELECT}, l.*, now() as "read.now", ${servedSql(!!o.allowCompleted)} as "read.served"
             from submission s left join link l on l.id = s.link_id
            where s.token_hash = $1${o.forUpdate ? ' for update of s' : ''})`,
  ];
  const columns = ['r.*'];
  if (o.fileId !== undefined) {
    ctes.push(`f as (select f.* from submission_file f join r on f.submission_id = r."submission.id"
                      where f.id = $${o.audit ? 4 : 2})`);
    columns.push('(select row_to_json(f) from f) as "read.file"');
  }
  if (o.audit) {
    const a = AUDIT[o.audit.action];
    const from = o.audit.action === 'document.file_read' ? 'r join f on true' : 'r';
    ctes.push(`a as (insert into audit_event (actor_type, actor_id, action, link_id, request_id, ip, details)
      select 'link', 'submission:' || r."submission.id", '${o.audit.action}', r."submission.link_id", $2, $3,
             ${a.details}
        from ${from} where r."read.served" ${a.also})`);
  }
  if (o.payment) {
    columns.push(`(select json_build_object('amount_cents', p.amount_cents, 'payment_type_id', p.payment_type_id,
                                           'payment_source_id', p.payment_source_id)
                     from payment p where p.link_id = r."submission.link_id") as "read.payment"`);
    // An invoice states the link's payment plan (issue 41, item 5): its terms and, once the deposit fixed them, the
    // charges still to come. In this statement too, so opening or signing the invoice reads once.
    columns.push(`(select json_build_object('total_cents', pp.total_cents, 'deposit_cents', pp.deposit_cents,
                                           'kind', pp.kind, 'installment_count', pp.installment_count,
                                           'every', pp.every, 'first_due_on', to_char(pp.first_due_on, 'YYYY-MM-DD'),
                                           'installments', case when pp.balance_cents is null then null else
                                             (select coalesce(json_agg(json_build_object(
                                                        'dueOn', to_char(i.due_on, 'YYYY-MM-DD'),
                                                        'amountCents', i.amount_cents) order by i.n), '[]')
                                                from plan_installment i
                                               where i.plan_id = pp.id and i.status in ('scheduled', 'notified')) end)
                     from payment_plan pp
                    where pp.link_id = r."submission.link_id" and r."submission.kind" = 'invoice'
                      and pp.status <> 'cancelled') as "read.plan"`);
  }
  if (o.files) {
    columns.push(`(select coalesce(json_agg(f order by case f.side when 'front' then 0 else 1 end), '[]')
                     from submission_file f where f.submission_id = r."submission.id") as "read.files"`);
  }
  if (o.previousTyped) {
    // sameSignerKinds, in SQL: only from documents the same person signs.
    columns.push(`(select json_build_object('signerName', x.signer_name, 'typedSignature', x.typed_signature)
                     from submission x
                    where r."submission.status" = 'pending'
                      and x.link_id = r."submission.link_id" and x.id <> r."submission.id"
                      and x.status = 'completed' and x.typed_signature is not null
                      and case when r."submission.kind" in ${kindList(PAYOR_KINDS)}
                               then x.kind in ${kindList(PAYOR_KINDS)} else x.kind in ${kindList(PATIENT_KINDS)} end
                    order by x.completed_at desc limit 1) as "read.previous_typed"`);
  }
  const sql = `with ${ctes.join(',\n')}\nselect ${columns.join(', ')} from r`;
  built.set(key, sql);
  return sql;
}

interface PlanJson {
  total_cents: number;
  deposit_cents: number | null;
  kind: 'single' | 'installments';
  installment_count: number;
  every: 'week' | 'two_weeks' | 'month' | null;
  first_due_on: string;
  installments: { dueOn: string; amountCents: number }[] | null;
}

function documentPlan(p: PlanJson | null | undefined): DocumentPlan | null {
  if (!p) return null;
  return {
    totalCents: Number(p.total_cents),
    depositCents: p.deposit_cents === null ? null : Number(p.deposit_cents),
    shape:
      p.kind === 'single'
        ? { kind: 'single', dueOn: p.first_due_on }
        : { kind: 'installments', count: p.installment_count, every: p.every ?? 'month', firstDueOn: p.first_due_on },
    installments: p.installments?.map((i) => ({ dueOn: i.dueOn, amountCents: Number(i.amountCents) })) ?? null,
  };
}

const fileRow = (f: Record<string, unknown>): SubmissionFileRow =>
  ({ ...f, created_at: new Date(f.created_at as string) }) as SubmissionFileRow;

/**
 * The submission a token opens, its link and what the request needs besides (payment, files, the earlier typed
 * signature, one file), with the request's audit row, in ONE statement (issue 30: a journey's frames called this a
 * dozen times, each in a transaction of five to eight statements). The audit row is written exactly when the read is
 * served (the link usable, the submission open to this read); the caller still refuses by resolveSubmission.
 */
export async function readSubmission(q: Queryable, token: string, o: ReadOptions = {}): Promise<SubmissionRead | null> {
  if (!TOKEN.test(token)) return null;
  const fileId = o.fileId !== undefined && UUID.test(o.fileId) ? o.fileId : null;
  // In readSql's numbering: the token's hash, the audit's request and ip, the file id (only those the text uses:
  // PostgreSQL refuses a parameter it cannot type).
  const params: unknown[] = [sha256Hex(token)];
  if (o.audit) params.push(o.audit.requestId, o.audit.ip);
  if (o.fileId !== undefined) params.push(fileId);
  const r = await q.query<Record<string, unknown>>(readSql(o), params);
  const row = r.rows[0];
  if (!row) return null;
  const submission: Record<string, unknown> = {};
  const link: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith(SUBMISSION_PREFIX)) submission[k.slice(SUBMISSION_PREFIX.length)] = v;
    else if (!k.startsWith('read.')) link[k] = v;
  }
  const file = row['read.file'] as Record<string, unknown> | null | undefined;
  return {
    submission: submission as SubmissionRow,
    link: link.id === null || link.id === undefined ? null : (link as LinkRow),
    now: new Date(row['read.now'] as Date),
    payment: (row['read.payment'] as PaymentChoice | null | undefined) ?? null,
    plan: documentPlan(row['read.plan'] as PlanJson | null | undefined),
    files: ((row['read.files'] as Record<string, unknown>[] | undefined) ?? []).map(fileRow),
    previousTyped: (row['read.previous_typed'] as SubmissionRead['previousTyped'] | undefined) ?? null,
    file: file ? fileRow(file) : null,
  };
}
