import type { FunnelPlanMoney, FunnelResult, FunnelStageKey, funnelQuerySchema } from '@paylink/shared';
import { funnelStageKeySchema } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Queryable, Transaction } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { salesSql } from '../refunds/index.js';

type Query = z.output<typeof funnelQuerySchema>;

/** The funnel's stages in order: the shared schema's list (one place for the order, client and server). */
const FUNNEL_STAGES: readonly FunnelStageKey[] = funnelStageKeySchema.options;

/*
 * The funnel is computed in PostgreSQL (issue 30): at 100,000 links loading every link's stages into JavaScript took
 * seconds and hundreds of MB. One row per link ("facts": when it reached each stage, in milliseconds) feeds SQL
 * aggregates, so the server's memory does not grow with the number of links. The statements are generated from the
 * shared stage list, so the order of the stages stays in one place.
 */
const col = (k: FunnelStageKey) => `t_${k.toLowerCase()}`;
// date_part is double precision: extract() returns numeric, several times slower over a window's 150,000 links.
const ms = (expr: string) => `floor(date_part('epoch', ${expr}) * 1000)`;
/** Stages that apply to every link; the payor ID stage applies only when the link has that step. */
const applies = (k: FunnelStageKey) => (k === 'payorId' ? 'has_payor' : 'true');
/** The stage before `k` on this link (the payor ID stage is skipped where it does not apply). */
function previous(k: FunnelStageKey): { time: string; index: string } | null {
  const i = FUNNEL_STAGES.indexOf(k);
  if (i === 0) return null;
  const p = FUNNEL_STAGES[i - 1]!;
  if (p !== 'payorId') return { time: col(p), index: String(i - 1) };
  const pp = FUNNEL_STAGES[i - 2]!;
  return {
    time: `(case when has_payor then ${col(p)} else ${col(pp)} end)`,
    index: `(case when has_payor then ${i - 1} else ${i - 2} end)`,
  };
}

/** link_progress's column for each stage the link records (created is the link's own created_at). */
const PROGRESS_COLUMN: Record<Exclude<FunnelStageKey, 'created'>, string> = {
  sent: 'sent_at',
  opened: 'opened_at',
  signed_in: 'signed_in_at',
  patientInfo: 'patient_info_at',
  invoice: 'invoice_at',
  patientId: 'patient_id_at',
  payorId: 'payor_id_at',
  contract: 'contract_at',
  payment: 'payment_at',
  paid: 'paid_at',
};

/**
 * One row per link of the window, from link_progress alone (migration 0203, decision 0224: each link's milestones,
 * kept by triggers): `{where}` filters `link_progress p` (an index range on created_at), `{since}` is the window's
 * first instant. Events are counted from the window's start, as when they were aggregated from their own tables
 * (nothing can precede the link's creation; the payor ID step was never filtered, nor the payment). `times: 'ms'` for
 * the medians; `'timestamps'` where only "reached or not" counts (the stalled links), which spares ~150,000 × 11
 * conversions.
 */
function factsSql(where: string, since: string, { times }: { times: 'ms' | 'timestamps' }): string {
  const unfiltered = new Set<FunnelStageKey>(['payorId', 'paid']);
  const time = times === 'ms' ? ms : (expr: string) => expr;
  const stageTimes = FUNNEL_STAGES.filter((k) => k !== 'created').map((k) => {
    const c = `p.${PROGRESS_COLUMN[k as Exclude<FunnelStageKey, 'created'>]}`;
    return `${time(unfiltered.has(k) ? c : `case when ${c} >= ${since} then ${c} end`)} as ${col(k)}`;
  });
  return `select p.link_id as id, p.created_by, p.created_at, p.status = 'active' as open,
       ${time('p.created_at')} as ${col('created')}, p.has_payor,
       ${stageTimes.join(',\n       ')}
     from link_progress p
     where ${where}`;
}

/** Index (in FUNNEL_STAGES) of the furthest stage the link reached. */
const furthestSql = `greatest(${FUNNEL_STAGES.map((k, i) => `case when ${col(k)} is not null then ${i} end`).join(', ')})`;

interface StageRow {
  created_by: string | null;
  whole: boolean;
  [k: string]: unknown;
}

interface StalledRow {
  id: string;
  first_name: string;
  last_name: string;
  furthest: number;
  last_activity_at: Date | string | null;
  n: number;
  rn: number;
}

function stagesFrom(row: StageRow): FunnelResult['stages'] {
  return FUNNEL_STAGES.map((key, idx) => {
    const count = Number(row[`c_${idx}`]);
    const prevCount = Number(row[`p_${idx}`] ?? 0);
    const m = row[`m_${idx}`];
    return {
      key,
      count,
      conversion: idx === 0 || prevCount === 0 ? null : Math.round((count / prevCount) * 10000) / 10000,
      medianSeconds: m == null ? null : Math.round(Number(m) / 1000),
    };
  });
}

/**
 * Counts, conversion and median time per stage, for the whole window and per coordinator. A stage counts a link that
 * reached it or any later stage (a link copied and opened without a "sent" event still went through "sent").
 * Conversion: count / previous stage's count, where the payor ID stage and the stage after it compare only links that
 * have that step. Median: time between the two recorded times, over links with both.
 */
function stagesSql(): string {
  const parts = FUNNEL_STAGES.flatMap((k, i) => {
    const out = [`count(*) filter (where ${applies(k)} and furthest >= ${i})::int as c_${i}`];
    const p = previous(k);
    if (p) {
      out.push(`count(*) filter (where ${applies(k)} and furthest >= ${p.index})::int as p_${i}`);
      out.push(
        `percentile_cont(0.5) within group (order by greatest(0, ${col(k)} - ${p.time})) filter (where ${applies(k)}` +
          ` and ${col(k)} is not null and ${p.time} is not null) as m_${i}`,
      );
    }
    return out;
  });
  return `select created_by, grouping(created_by) = 1 as whole,
       ${parts.join(',\n       ')}
     from facts x
     group by grouping sets ((), (created_by))`;
}

/**
 * The plans' money of the funnel's links (issue 28): collected (instalments charged, less what was refunded of them),
 * scheduled (open instalments of plans not cancelled, retries included) and failed (after the last retry); and what
 * was collected of every sale of the window's links, deposits included (decision 0243). Both "collected" figures are
 * the read model of money movements' net, the Payments screen's. Cents summed in SQL.
 */
async function queryMoney(
  q: Queryable,
  where: string,
  params: unknown[],
): Promise<{ planMoney: FunnelPlanMoney; collected: FunnelResult['collected'] }> {
  const links = `select p.link_id from link_progress p where ${where}`;
  const sales = salesSql({ status: 'approved', linkIdsSql: links }, params);
  const r = await q.query<{
    plans: number;
    collected_count: number;
    collected_cents: string;
    plan_collected_count: number;
    plan_collected_cents: string;
    scheduled_count: number;
    scheduled_cents: string;
    failed_count: number;
    failed_cents: string;
  }>(
    `with sold as (
       select count(*) filter (where s.net_cents::bigint > 0)::int as collected_count,
         coalesce(sum(s.net_cents::bigint), 0)::text as collected_cents,
         count(*) filter (where s.kind = 'installment' and s.net_cents::bigint > 0)::int as plan_collected_count,
         coalesce(sum(s.net_cents::bigint) filter (where s.kind = 'installment'), 0)::text as plan_collected_cents
       from (${sales}) s),
     planned as (
       select count(*) filter (where i.status in ('scheduled', 'notified') and pp.status <> 'cancelled')::int
           as scheduled_count,
         coalesce(sum(i.amount_cents) filter (where i.status in ('scheduled', 'notified')
           and pp.status <> 'cancelled'), 0)::text as scheduled_cents,
         count(*) filter (where i.status = 'failed')::int as failed_count,
         coalesce(sum(i.amount_cents) filter (where i.status = 'failed'), 0)::text as failed_cents
       from plan_installment i join payment_plan pp on pp.id = i.plan_id
       where pp.link_id in (${links}))
     select (select count(*)::int from payment_plan where link_id in (${links})) as plans, sold.*, planned.*
     from sold, planned`,
    params,
  );
  const x = r.rows[0]!;
  const total = (count: number, cents: string) => ({ count, amount: Number(cents) / 100 });
  return {
    planMoney: {
      plans: x.plans,
      collected: total(x.plan_collected_count, x.plan_collected_cents),
      scheduled: total(x.scheduled_count, x.scheduled_cents),
      failed: total(x.failed_count, x.failed_cents),
    },
    collected: total(x.collected_count, x.collected_cents),
  };
}

/** The funnel for links created in [from, to] (practice time zone; default the last 30 days). Audited. */
export async function queryFunnel(opts: {
  ctx: AppContext;
  actor: Actor;
  staffId: string;
  query: Query;
}): Promise<FunnelResult> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
  const to = query.to ?? today;
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const params: unknown[] = [from, to, timeZone];
  const since = `(($1::date)::timestamp at time zone $3)`;
  let where = `p.created_at >= ${since} and p.created_at < ($2::date + 1)::timestamp at time zone $3`;
  if (query.coordinatorId) {
    params.push(query.coordinatorId === 'me' ? opts.staffId : query.coordinatorId);
    where += ` and p.created_by = $${params.length}`;
  }
  // The stage figures and the stalled links are two statements on two connections at once (PGlite runs them one
  // after the other): at 1,000,000 links each is about half a second of one core, together over the 1 s goal
  // (issue 30). Each reads the window's links itself, the stalled links without the medians' millisecond times. They
  // may see snapshots a few milliseconds apart, as two panels of a dashboard refreshed together would.
  const analytical = async <T>(fn: (tx: Transaction) => Promise<T>) =>
    ctx.db.transaction(async (tx) => {
      // JIT compiling these aggregates costs more than it saves (about a second on the 2-core machine at 100,000
      // links). The window's facts (about 150,000 rows for a 50-location group) sort in memory rather than on disk;
      // the memory is PostgreSQL's, per sort, for this statement only.
      await tx.query('set local jit = off');
      await tx.query(`set local work_mem = '32MB'`);
      return fn(tx);
    });
  const stagesPart = analytical(async (tx) => {
    const rows = await tx.query<StageRow>(
      `with facts as (select f.*, ${furthestSql} as furthest from (${factsSql(where, since, { times: 'ms' })}) f)
       ${stagesSql()}`,
      params,
    );
    const staff = await tx.query<{ id: string; name: string; email: string }>(
      `select id, name, email from staff_user where id = any($1::uuid[])`,
      [rows.rows.flatMap((r) => (!r.whole && r.created_by !== null ? [r.created_by] : []))],
    );
    // The read model appends its own parameters: a copy, so the stalled links' statement keeps its numbering.
    const money = await queryMoney(tx, where, [...params]);
    return { stageRows: rows.rows, staff: staff.rows, ...money };
  });
  const stalledParams = [...params, query.stalledAfterHours];
  const stalledPart = analytical((tx) =>
    tx.query<StalledRow>(
      `with facts as (select f.*, ${furthestSql} as furthest
         from (${factsSql(where, since, { times: 'timestamps' })}) f),
       activity as (
         select a.link_id, max(a.at) as last_activity_at from audit_event a
         where a.actor_type = 'link' and a.at >= ${since} group by a.link_id
       ),
       open_links as (
         select f.id, f.created_at, f.furthest, act.last_activity_at
         from facts f left join activity act on act.link_id = f.id
         where f.open and f.${col('paid')} is null
       ),
       stalled as (
         select o.*, row_number() over (partition by furthest order by coalesce(last_activity_at, created_at), id) as rn,
           count(*) over (partition by furthest)::int as n
         from open_links o
         where coalesce(last_activity_at, created_at) <= now() - make_interval(hours => $${stalledParams.length}::int)
       )
       -- The names of the ~200 listed links by their key (the LIMIT keeps it a lookup per row, not a join that
       -- reads every link).
       select s.id, l.first_name, l.last_name, s.furthest, s.last_activity_at, s.n, s.rn::int as rn
       from stalled s cross join lateral (select first_name, last_name from link where id = s.id limit 1) l
       where s.rn <= 20`,
      stalledParams,
    ),
  );
  // Both settle before either failure is answered: no statement of this call is left running after it.
  const [stagesOutcome, stalledOutcome] = await Promise.allSettled([stagesPart, stalledPart]);
  if (stagesOutcome.status === 'rejected') throw stagesOutcome.reason;
  if (stalledOutcome.status === 'rejected') throw stalledOutcome.reason;
  const { stageRows, staff, planMoney, collected } = stagesOutcome.value;
  const whole = stageRows.find((r) => r.whole);
  const byCoordinator = stageRows
    .filter((r) => !r.whole)
    .map((r) => {
      const u = r.created_by ? staff.find((s) => s.id === r.created_by) : undefined;
      return {
        coordinator: r.created_by ? { id: r.created_by, name: u?.name ?? '', email: u?.email ?? '' } : null,
        stages: stagesFrom(r),
      };
    })
    .sort((a, b) => (a.coordinator?.email ?? '~').localeCompare(b.coordinator?.email ?? '~'));

  // Stalled: open, unpaid, no patient activity for `stalledAfterHours`; grouped by the last stage reached, the
  // 20 quietest of each stage listed.
  const stalledRows = [...stalledOutcome.value.rows].sort((x, y) => x.furthest - y.furthest || x.rn - y.rn);
  const stalled: FunnelResult['stalled'] = [];
  for (const r of stalledRows) {
    const stage = FUNNEL_STAGES[r.furthest] ?? 'created';
    let group = stalled.find((s) => s.stage === stage);
    if (!group) stalled.push((group = { stage, count: r.n, links: [] }));
    group.links.push({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      lastActivityAt: r.last_activity_at ? new Date(r.last_activity_at).toISOString() : null,
    });
  }
  // The names listed are patient data: the row is written before the answer goes out, and a failure to write it
  // answers the error instead of the funnel.
  await writeAudit(ctx.db, {
    ...opts.actor,
    action: 'admin.funnel_viewed',
    details: {
      from,
      to,
      coordinatorId: query.coordinatorId ?? null,
      linkIds: stalled.flatMap((s) => s.links.map((l) => l.id)),
    },
  });
  const empty = { created_by: null, whole: true } as StageRow;
  return { from, to, timeZone, stages: stagesFrom(whole ?? empty), byCoordinator, stalled, planMoney, collected };
}
