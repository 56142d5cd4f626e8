import type { PlanEvery, PlanShape, ScheduledInstallment } from '@paylink/shared';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
import { movePlan } from './plan-lifecycle.js';

/**
 * A plan as the module reads it: money as JS numbers of cents (bigint columns come back as strings from
 * node-postgres; Number is exact below 2^53 cents) and dates as YYYY-MM-DD text (a `date` read as a JS Date would
 * shift with the server's time zone).
 */
export interface PlanRow {
  /** bigserial, as text. */
  id: string;
  linkId: string;
  totalCents: number;
  shape: PlanShape;
  status: Row<'payment_plan'>['status'];
  depositCents: number | null;
  balanceCents: number | null;
  createdAt: string;
}

export interface InstallmentRow {
  n: number;
  dueOn: string;
  amountCents: number;
  status: Row<'plan_installment'>['status'];
  refundedCents: number;
  lastFailure: string | null;
  /** Who holds the row's claim and until when (a pass, or the hold of a sale with no answer: decision 0237). */
  claimedBy: string | null;
  claimExpiresAt: string | null;
}

const cents = (v: string | number | bigint | null) => (v === null ? null : Number(v));

export async function insertPlan(
  q: Queryable,
  o: { linkId: string; totalCents: number; shape: PlanShape; createdBy: string | null },
): Promise<string> {
  const { shape } = o;
  const r = await typed(q)
    .insertInto('payment_plan')
    .values({
      link_id: o.linkId,
      total_cents: o.totalCents,
      kind: shape.kind,
      installment_count: shape.kind === 'single' ? 1 : shape.count,
      every: shape.kind === 'single' ? null : shape.every,
      first_due_on: shape.kind === 'single' ? shape.dueOn : shape.firstDueOn,
      created_by: o.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(r.id);
}

/** The link's plan, or null; `forUpdate` locks it (materialising, and later cancelling, take the lock). */
export async function findPlanByLink(
  q: Queryable,
  linkId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PlanRow | null> {
  let query = typed(q)
    .selectFrom('payment_plan')
    .select([
      'id',
      'link_id',
      'total_cents',
      'kind',
      'installment_count',
      'every',
      'status',
      'deposit_cents',
      'balance_cents',
      'created_at',
      sql<string>`to_char(first_due_on, 'YYYY-MM-DD')`.as('first_due_on'),
    ])
    .where('link_id', '=', linkId);
  if (opts.forUpdate) query = query.forUpdate();
  const r = await query.executeTakeFirst();
  if (!r) return null;
  const shape: PlanShape =
    r.kind === 'single'
      ? { kind: 'single', dueOn: r.first_due_on }
      : { kind: 'installments', count: r.installment_count, every: r.every as PlanEvery, firstDueOn: r.first_due_on };
  return {
    id: String(r.id),
    linkId: r.link_id,
    totalCents: Number(r.total_cents),
    shape,
    status: r.status,
    depositCents: cents(r.deposit_cents),
    balanceCents: cents(r.balance_cents),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** A fresh merchant transaction id per instalment: every try of it sends the same one (24 hex, like attempts). */
const newMerchantTxnId = () => randomBytes(12).toString('hex');

/** Stores the balance's instalments and the deposit; the plan becomes active (or completed with nothing to charge). */
export async function storeInstallments(
  q: Queryable,
  o: { planId: string; depositCents: number; balanceCents: number; installments: ScheduledInstallment[] },
): Promise<void> {
  if (o.installments.length) {
    await typed(q)
      .insertInto('plan_installment')
      .values(
        o.installments.map((i) => ({
          plan_id: o.planId,
          n: i.n,
          due_on: i.dueOn,
          amount_cents: i.amountCents,
          merchant_txn_id: newMerchantTxnId(),
        })),
      )
      .execute();
  }
  await movePlan(q, o.planId, o.installments.length ? 'active' : 'completed', {
    from: ['pending'],
    set: { deposit_cents: o.depositCents, balance_cents: o.balanceCents, materialised_at: sql`now()` },
  });
}

export async function listInstallments(q: Queryable, planId: string): Promise<InstallmentRow[]> {
  const rows = await typed(q)
    .selectFrom('plan_installment')
    .select([
      'n',
      'amount_cents',
      'status',
      'refunded_cents',
      'last_failure',
      'claimed_by',
      sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on'),
      sql<string | null>`to_char(claim_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as(
        'claim_expires_at',
      ),
    ])
    .where('plan_id', '=', planId)
    .orderBy('n')
    .execute();
  return rows.map((r) => ({
    n: r.n,
    dueOn: r.due_on,
    amountCents: Number(r.amount_cents),
    status: r.status,
    refundedCents: Number(r.refunded_cents),
    lastFailure: r.last_failure,
    claimedBy: r.claimed_by,
    claimExpiresAt: r.claim_expires_at,
  }));
}
