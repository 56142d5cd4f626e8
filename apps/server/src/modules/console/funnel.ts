import type { FunnelPlanMoney, FunnelResult, FunnelStageKey, funnelQuerySchema } from '@paylink/shared';
import { StepRoutes, funnelStageKeySchema } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';

type Query = z.output<typeof funnelQuerySchema>;

/** The funnel's stages in order: the shared schema's list (one place for the order, client and server). */
const FUNNEL_STAGES: readonly FunnelStageKey[] = funnelStageKeySchema.options;
const STEP_STAGES = ['patientInfo', 'invoice', 'patientId', 'payorId', 'contract', 'payment'] as const;

interface LinkFacts {
  id: string;
  first_name: string;
  last_name: string;
  created_by: string | null;
  coord_name: string | null;
  coord_email: string | null;
  open: boolean;
  created_at: Date;
  sent_at: Date | null;
  opened_at: Date | null;
  signed_in_at: Date | null;
  steps: Record<string, string | null> | null;
  paid_at: Date | null;
  last_activity_at: Date | null;
  stalled: boolean;
}

/** When each link reached each stage; null = not (yet). Stages that do not apply (payor ID on a patient link) are absent. */
function stageTimes(l: LinkFacts): Map<FunnelStageKey, number | null> {
  const t = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : null);
  const m = new Map<FunnelStageKey, number | null>([
    ['created', t(l.created_at)],
    ['sent', t(l.sent_at)],
    ['opened', t(l.opened_at)],
    ['signed_in', t(l.signed_in_at)],
  ]);
  for (const s of STEP_STAGES) {
    const route = StepRoutes[s];
    if (s === 'payorId' && !(l.steps && route in l.steps)) continue;
    m.set(s, t(l.steps?.[route]));
  }
  m.set('paid', t(l.paid_at));
  return m;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Counts, conversion and median time per stage. A stage counts a link that reached it or any later stage (a link
 * copied and opened without a "sent" event still went through "sent"). Conversion: count / previous stage's count,
 * where the payor ID stage and the stage after it compare only links that have that step. Median: seconds between
 * the two recorded times, over links with both.
 */
function computeStages(links: LinkFacts[]): FunnelResult['stages'] {
  const perLink = links.map((l) => {
    const times = stageTimes(l);
    const keys = FUNNEL_STAGES.filter((k) => times.has(k));
    let furthest = -1;
    keys.forEach((k, i) => {
      if (times.get(k) !== null) furthest = i;
    });
    return { times, keys, furthest };
  });
  return FUNNEL_STAGES.map((key, idx) => {
    let count = 0;
    let prevCount = 0;
    const gaps: number[] = [];
    for (const { times, keys, furthest } of perLink) {
      const i = keys.indexOf(key);
      if (i < 0) continue;
      if (furthest >= i) count++;
      if (i > 0 && furthest >= i - 1) prevCount++;
      const here = times.get(key);
      const before = i > 0 ? times.get(keys[i - 1]!) : null;
      if (here != null && before != null) gaps.push(Math.max(0, (here - before) / 1000));
    }
    const m = median(gaps);
    return {
      key,
      count,
      conversion: idx === 0 || prevCount === 0 ? null : Math.round((count / prevCount) * 10000) / 10000,
      medianSeconds: m === null ? null : Math.round(m),
    };
  });
}

/**
 * The plans' money of the funnel's links (issue 28): collected (paid instalments less refunds), scheduled (open
 * instalments of plans not cancelled, retries included) and failed (after the last retry). Cents summed in SQL.
 */
async function queryPlanMoney(q: Queryable, linkIds: string[]): Promise<FunnelPlanMoney> {
  const r = await q.query<{
    plans: number;
    collected_count: number;
    collected_cents: string;
    scheduled_count: number;
    scheduled_cents: string;
    failed_count: number;
    failed_cents: string;
  }>(
    `select (select count(*)::int from payment_plan where link_id = any($1::text[])) as plans,
       count(*) filter (where i.status in ('paid', 'refunded') and i.amount_cents > i.refunded_cents)::int
         as collected_count,
       coalesce(sum(i.amount_cents - i.refunded_cents) filter (where i.status in ('paid', 'refunded')), 0)::text
         as collected_cents,
       count(*) filter (where i.status in ('scheduled', 'notified') and pp.status <> 'cancelled')::int
         as scheduled_count,
       coalesce(sum(i.amount_cents) filter (where i.status in ('scheduled', 'notified') and pp.status <> 'cancelled'),
         0)::text as scheduled_cents,
       count(*) filter (where i.status = 'failed')::int as failed_count,
       coalesce(sum(i.amount_cents) filter (where i.status = 'failed'), 0)::text as failed_cents
     from plan_installment i join payment_plan pp on pp.id = i.plan_id
     where pp.link_id = any($1::text[])`,
    [linkIds],
  );
  const x = r.rows[0]!;
  const total = (count: number, cents: string) => ({ count, amount: Number(cents) / 100 });
  return {
    plans: x.plans,
    collected: total(x.collected_count, x.collected_cents),
    scheduled: total(x.scheduled_count, x.scheduled_cents),
    failed: total(x.failed_count, x.failed_cents),
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
  let coord = '';
  if (query.coordinatorId) {
    params.push(query.coordinatorId === 'me' ? opts.staffId : query.coordinatorId);
    coord = `and l.created_by = $${params.length}`;
  }
  return ctx.db.transaction(async (tx) => {
    const r = await tx.query<LinkFacts>(
      `select l.id, l.first_name, l.last_name, l.created_by, u.name as coord_name, u.email as coord_email,
         l.created_at,
         (select min(a.at) from audit_event a where a.link_id = l.id and a.action in ('link.sent', 'link.resent'))
           as sent_at,
         (select min(a.at) from audit_event a where a.link_id = l.id and a.action = 'patient.phone_lookup') as opened_at,
         (select min(s.created_at) from patient_session s where s.link_id = l.id) as signed_in_at,
         (select jsonb_object_agg(s.route_path, s.completed_at) from link_step s where s.link_id = l.id) as steps,
         (select p.paid_at from payment p where p.link_id = l.id and p.status = 'approved') as paid_at,
         (select max(a.at) from audit_event a where a.link_id = l.id and a.actor_type = 'link') as last_activity_at,
         l.status = 'active' as open
       from link l left join staff_user u on u.id = l.created_by
       where l.created_at >= ($1::date)::timestamp at time zone $3
         and l.created_at < ($2::date + 1)::timestamp at time zone $3 ${coord}`,
      params,
    );
    const now = Date.now();
    const stalledMs = query.stalledAfterHours * 3600_000;
    const links = r.rows.map((l) => ({
      ...l,
      stalled: l.open && !l.paid_at && now - new Date(l.last_activity_at ?? l.created_at).getTime() >= stalledMs,
    }));
    // Stalled links by the last stage they reached.
    const groups = new Map<FunnelStageKey, LinkFacts[]>();
    for (const l of links.filter((x) => x.stalled)) {
      const times = stageTimes(l);
      let last: FunnelStageKey = 'created';
      for (const k of FUNNEL_STAGES) if (times.get(k) != null) last = k;
      const g = groups.get(last);
      if (g) g.push(l);
      else groups.set(last, [l]);
    }
    const stalled = FUNNEL_STAGES.filter((k) => groups.has(k)).map((stage) => {
      const ls = groups
        .get(stage)!
        .sort(
          (a, b) =>
            new Date(a.last_activity_at ?? a.created_at).getTime() -
            new Date(b.last_activity_at ?? b.created_at).getTime(),
        );
      return {
        stage,
        count: ls.length,
        links: ls.slice(0, 20).map((l) => ({
          id: l.id,
          firstName: l.first_name,
          lastName: l.last_name,
          lastActivityAt: l.last_activity_at ? new Date(l.last_activity_at).toISOString() : null,
        })),
      };
    });
    const byCoord = new Map<string, LinkFacts[]>();
    // push, not spread: copying the list per link is quadratic (10,000 links of one coordinator).
    for (const l of links) {
      const g = byCoord.get(l.created_by ?? '');
      if (g) g.push(l);
      else byCoord.set(l.created_by ?? '', [l]);
    }
    const byCoordinator = [...byCoord.entries()]
      .map(([id, ls]) => ({
        coordinator: id ? { id, name: ls[0]!.coord_name ?? '', email: ls[0]!.coord_email ?? '' } : null,
        stages: computeStages(ls),
      }))
      .sort((a, b) => (a.coordinator?.email ?? '~').localeCompare(b.coordinator?.email ?? '~'));
    const planMoney = await queryPlanMoney(
      tx,
      links.map((l) => l.id),
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.funnel_viewed',
      details: {
        from,
        to,
        coordinatorId: query.coordinatorId ?? null,
        linkIds: stalled.flatMap((s) => s.links.map((l) => l.id)),
      },
    });
    return { from, to, timeZone, stages: computeStages(links), byCoordinator, stalled, planMoney };
  });
}
