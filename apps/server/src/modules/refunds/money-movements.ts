import type { Queryable } from '../../db/client.js';

/*
 * The staff read model of money movements (issue 41, item 4; decision 0243): every sale the gateway saw (a link's
 * deposit or balance payment, each plan instalment charged) and every refund or void of one, with its link, plan,
 * instalment number, card, gateway and merchant transaction ids, state and net, in cents. The console's Payments
 * screen and its totals, its CSV, the bookkeeping payments CSV, the funnel's "collected", the link page's money card
 * and the evidence pack all read it here, so none of them can leave a kind of sale out again.
 *
 * It is SQL text rather than a view: each caller adds its filters inside both branches of the union, where the
 * indexes on payment and plan_installment apply (docs/performance.md), and the CSVs read it through a cursor.
 */

/** The date a deposit or balance payment counts on: when it was paid, else when the amount was chosen. */
export const PAYMENT_AT = 'coalesce(p.paid_at, p.created_at)';
/** The date an instalment charge counts on: when it was paid, else its last change (the final decline). */
export const INSTALLMENT_AT = 'coalesce(i.paid_at, i.updated_at)';

/**
 * A card was tried on this unpaid payment (issue 29, item 4; decision 0219): the patient submitted a card, so the
 * gateway handed out a checkout token (an attempt that got past 'creating' and did not fail to start), or the browser
 * reported a failure. A link where an amount was only chosen is not an attempt.
 */
const CARD_TRIED = `(p.status = 'chosen' and (
    exists (select 1 from payment_attempt a where a.payment_id = p.id and a.status not in ('creating', 'failed'))
    or exists (select 1 from payment_log g where g.link_id = p.link_id)))`;

/**
 * Every failure the patient met paying (decision 0219): each failure the browser reported (declined, 3-D Secure
 * failed, error, checkout unavailable: one payment_log row each, even two on one shared token) and each payment the
 * gateway could not start. A token closed unused is not a failure.
 */
const FAILED_ATTEMPTS = `((select count(*) from payment_log g where g.link_id = p.link_id)
    + (select count(*) from payment_attempt a where a.payment_id = p.id and a.status = 'failed'))::int`;

/** What filters the sales: the Payments screen's filters, or the funnel's window of links. */
export interface SaleFilters {
  /** approved = charged (refunded or not); attempted = a card was tried and not approved. Absent: both. */
  status?: 'approved' | 'attempted';
  /** Days (YYYY-MM-DD) in `timeZone`, both included, on the sale's date (PAYMENT_AT, INSTALLMENT_AT). */
  from?: string;
  to?: string;
  timeZone?: string;
  /** The link's creator (staff user id). */
  createdBy?: string;
  /** Patient name or e-mail, payor name, link id or gateway transaction id. */
  q?: string;
  /** SQL returning link ids (parameters already in `params`): only these links' sales. */
  linkIdsSql?: string;
  /** Only instalment charges (the funnel's plan money). */
  installmentsOnly?: boolean;
  /**
   * SQL naming a relation `(src, sale_id)` of chosen sales (a page picked from the lean relation): only those. The
   * detail's per-row sub-selects then run for the page's rows alone, not for every sale the filters match.
   */
  keysSql?: string;
}

/**
 * One row per sale. `status` is `approved` for a charge the card network approved (refunded or not), `chosen` for a
 * deposit or balance payment a card was tried on, `failed` for an instalment declined after its last retry. `net` is
 * what the practice keeps of it: amount less refunded when approved, else 0.
 */
export interface SaleRow {
  src: 1 | 2;
  sale_id: string;
  kind: 'deposit' | 'payment' | 'installment';
  link_id: string;
  status: 'approved' | 'chosen' | 'failed';
  amount_cents: string;
  refunded_cents: string;
  net_cents: string;
  at: Date;
}

export interface SaleDetailRow extends SaleRow {
  first_name: string;
  last_name: string;
  plan_id: string | null;
  n: number | null;
  installment_count: number | null;
  due_on: string | null;
  installment_status: 'paid' | 'refunded' | 'failed' | null;
  plan_total_cents: string | null;
  plan_balance_cents: string | null;
  payment_type_id: number | null;
  payment_source_id: number;
  payor_full_name: string | null;
  payor_email: string | null;
  card_brand: string | null;
  card_last4: string | null;
  /** The gateway's id of the sale. */
  transaction_id: string | null;
  /** Our id of the sale at the gateway (its idempotency key there). */
  merchant_txn_id: string | null;
  approval_code: string | null;
  failed_attempts: number;
  coord_id: string | null;
  coord_name: string | null;
  coord_email: string | null;
  created_at: Date;
  paid_at: Date | null;
}

const PAYMENT_MONEY = `1 as src, p.id::bigint::text as sale_id,
    case when p.payment_type_id = 1 then 'deposit' else 'payment' end as kind, p.link_id, p.status,
    p.amount_cents::bigint::text as amount_cents, p.refunded_cents::bigint::text as refunded_cents,
    (case when p.status = 'approved' then p.amount_cents - p.refunded_cents else 0 end)::bigint::text as net_cents,
    ${PAYMENT_AT} as at`;
const INSTALLMENT_MONEY = `2 as src, i.id::text as sale_id, 'installment' as kind, pp.link_id,
    case when i.status = 'failed' then 'failed' else 'approved' end as status,
    i.amount_cents::text as amount_cents, i.refunded_cents::text as refunded_cents,
    (case when i.status = 'failed' then 0 else i.amount_cents - i.refunded_cents end)::text as net_cents,
    ${INSTALLMENT_AT} as at`;

const PAYMENT_DETAIL = `, l.first_name, l.last_name, pp.id::text as plan_id, null::int as n,
    pp.installment_count, null::text as due_on, null::text as installment_status,
    pp.total_cents::text as plan_total_cents, pp.balance_cents::text as plan_balance_cents,
    p.payment_type_id::int as payment_type_id, p.payment_source_id::int as payment_source_id, p.payor_full_name,
    p.payor_email, p.card_brand, p.card_last4, p.transaction_id,
    (select a.id from payment_attempt a where a.link_id = p.link_id and a.status = 'approved') as merchant_txn_id,
    p.approval_code, ${FAILED_ATTEMPTS} as failed_attempts, u.id as coord_id, u.name as coord_name,
    u.email as coord_email, p.created_at, p.paid_at`;
// The card is the plan's current one: an instalment row does not name the card it was charged to.
const INSTALLMENT_DETAIL = `, l.first_name, l.last_name, pp.id::text as plan_id, i.n, pp.installment_count,
    to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.status as installment_status,
    pp.total_cents::text as plan_total_cents, pp.balance_cents::text as plan_balance_cents,
    null::int as payment_type_id, 1 as payment_source_id, null::text as payor_full_name, null::text as payor_email,
    c.brand as card_brand, c.last4 as card_last4, i.gateway_txn_id as transaction_id, i.merchant_txn_id,
    null::text as approval_code,
    (case when i.status = 'failed' then i.attempts else greatest(0, i.attempts - 1) end)::int as failed_attempts,
    u.id as coord_id, u.name as coord_name, u.email as coord_email, i.created_at, i.paid_at`;

const PAYMENT_FROM = `from payment p join link l on l.id = p.link_id`;
const PAYMENT_DETAIL_FROM = `${PAYMENT_FROM} left join payment_plan pp on pp.link_id = p.link_id
  left join staff_user u on u.id = l.created_by`;
const INSTALLMENT_FROM = `from plan_installment i join payment_plan pp on pp.id = i.plan_id join link l on l.id = pp.link_id`;
const INSTALLMENT_DETAIL_FROM = `${INSTALLMENT_FROM}
  left join stored_card c on c.link_id = l.id and c.replaced_at is null
  left join staff_user u on u.id = l.created_by`;

/**
 * The sales under `f`, as one SQL relation (a UNION ALL with the filters inside each branch). `detail`: every column
 * of SaleDetailRow (the screen's rows and the CSVs); without it only SaleRow's (totals). Parameters go into `params`.
 * Newest first is SALES_ORDER.
 */
export function salesSql(f: SaleFilters, params: unknown[], opts: { detail?: boolean } = {}): string {
  const add = (v: unknown) => `$${params.push(v)}`;
  const p: string[] = [
    f.status === 'approved'
      ? `p.status = 'approved'`
      : f.status === 'attempted'
        ? CARD_TRIED
        : `(p.status = 'approved' or ${CARD_TRIED})`,
  ];
  const i: string[] = [
    f.status === 'approved'
      ? `i.status in ('paid', 'refunded')`
      : f.status === 'attempted'
        ? `i.status = 'failed'`
        : `i.status in ('paid', 'refunded', 'failed')`,
  ];
  if (f.from) {
    const day = `(${add(f.from)}::date)::timestamp at time zone ${add(f.timeZone ?? 'UTC')}`;
    p.push(`${PAYMENT_AT} >= ${day}`);
    i.push(`${INSTALLMENT_AT} >= ${day}`);
  }
  if (f.to) {
    const day = `(${add(f.to)}::date + 1)::timestamp at time zone ${add(f.timeZone ?? 'UTC')}`;
    p.push(`${PAYMENT_AT} < ${day}`);
    i.push(`${INSTALLMENT_AT} < ${day}`);
  }
  if (f.createdBy) {
    const by = add(f.createdBy);
    p.push(`l.created_by = ${by}`);
    i.push(`l.created_by = ${by}`);
  }
  if (f.q) {
    const like = add(`%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const exact = add(f.q);
    const who = `(l.first_name || ' ' || l.last_name) ilike ${like} or l.email ilike ${like} or l.id = ${exact}`;
    p.push(`(${who} or p.payor_full_name ilike ${like} or p.transaction_id = ${exact})`);
    i.push(`(${who} or i.gateway_txn_id = ${exact})`);
  }
  if (f.keysSql) {
    p.push(`p.id in (select k.sale_id::bigint from ${f.keysSql} k where k.src = 1)`);
    i.push(`i.id in (select k.sale_id::bigint from ${f.keysSql} k where k.src = 2)`);
  }
  if (f.linkIdsSql) {
    p.push(`p.link_id in (${f.linkIdsSql})`);
    i.push(`pp.link_id in (${f.linkIdsSql})`);
  }
  const d = opts.detail;
  const installments = `select ${INSTALLMENT_MONEY}${d ? INSTALLMENT_DETAIL : ''}
    ${d ? INSTALLMENT_DETAIL_FROM : INSTALLMENT_FROM} where ${i.join(' and ')}`;
  if (f.installmentsOnly) return installments;
  return `select ${PAYMENT_MONEY}${d ? PAYMENT_DETAIL : ''}
    ${d ? PAYMENT_DETAIL_FROM : PAYMENT_FROM} where ${p.join(' and ')}
  union all
  ${installments}`;
}

/**
 * Newest first (the screen, its CSV): by the millisecond (what the API's ISO times show), a payment before an
 * instalment of the same millisecond, then by the exact time and id.
 */
export const SALES_ORDER = `order by date_trunc('milliseconds', at) desc, src, at desc, sale_id::bigint desc`;

/** Sums over sales: how many and how much was charged, refunded and kept (cents). */
export interface MoneySums {
  approved_count: number;
  approved_cents: string;
  attempted_count: number;
  attempted_cents: string;
  refunded_cents: string;
  net_cents: string;
}

/** The aggregate columns of MoneySums over a relation of sales `s`. */
export const MONEY_SUMS = `count(*) filter (where s.status = 'approved')::int as approved_count,
       coalesce(sum(s.amount_cents::bigint) filter (where s.status = 'approved'), 0)::text as approved_cents,
       count(*) filter (where s.status <> 'approved')::int as attempted_count,
       coalesce(sum(s.amount_cents::bigint) filter (where s.status <> 'approved'), 0)::text as attempted_cents,
       coalesce(sum(s.refunded_cents::bigint) filter (where s.status = 'approved'), 0)::text as refunded_cents,
       coalesce(sum(s.net_cents::bigint), 0)::text as net_cents`;

/** A refund or void, with the sale it gives back (an instalment's number when it is one) and that sale's card. */
export interface ReversalRow {
  id: string;
  link_id: string;
  kind: 'void' | 'return';
  status: 'pending' | 'succeeded' | 'failed';
  amount_cents: number;
  /**
   * What it took off the sales' money: −amount once succeeded, else 0. A void of a second approval flagged by
   * reconciliation is 0: that charge was never one of the link's sales.
   */
  net_cents: number;
  reason: string;
  original_transaction_id: string;
  gateway_transaction_id: string | null;
  failure_message: string | null;
  requested_by: string | null;
  payment_attempt_id: string | null;
  plan_installment_id: string | null;
  n: number | null;
  installment_count: number | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** One link's money: its sales (oldest first), its refunds and voids (oldest first), and the sums over both. */
export interface LinkMoney {
  sales: SaleDetailRow[];
  reversals: ReversalRow[];
  /** Cents: charged and approved, given back (succeeded refunds and voids of those sales), kept. */
  paidCents: number;
  refundedCents: number;
  netCents: number;
}

/** The money card's and the evidence pack's read of one link. */
export async function linkMoney(q: Queryable, linkId: string): Promise<LinkMoney> {
  const params: unknown[] = [linkId];
  const sales = await q.query<SaleDetailRow>(
    `select * from (${salesSql({ linkIdsSql: 'select $1::text' }, params, { detail: true })}) s
     order by at, src, sale_id::bigint`,
    params,
  );
  const reversals = await q.query<ReversalRow>(
    `select r.id, r.link_id, r.kind, r.status, r.amount_cents,
        (case when r.status = 'succeeded' and r.payment_attempt_id is null then -r.amount_cents else 0 end)::int
          as net_cents, r.reason,
        r.original_transaction_id, r.gateway_transaction_id, r.failure_message, r.requested_by, r.payment_attempt_id,
        r.plan_installment_id::text as plan_installment_id, i.n, pp.installment_count,
        case when r.plan_installment_id is not null then c.brand
             when r.payment_attempt_id is not null then null else p.card_brand end as card_brand,
        case when r.plan_installment_id is not null then c.last4
             when r.payment_attempt_id is not null then null else p.card_last4 end as card_last4,
        r.created_at, r.completed_at
       from refund r
       left join payment p on p.id = r.payment_id
       left join plan_installment i on i.id = r.plan_installment_id
       left join payment_plan pp on pp.id = i.plan_id
       left join stored_card c on c.link_id = r.link_id and c.replaced_at is null
      where r.link_id = $1 order by r.created_at, r.id`,
    [linkId],
  );
  const approved = sales.rows.filter((s) => s.status === 'approved');
  const sum = (xs: string[]) => xs.reduce((n, x) => n + Number(x), 0);
  return {
    sales: sales.rows,
    reversals: reversals.rows,
    paidCents: sum(approved.map((s) => s.amount_cents)),
    refundedCents: sum(approved.map((s) => s.refunded_cents)),
    netCents: sum(sales.rows.map((s) => s.net_cents)),
  };
}
