import type { BoardRow, StaffRole } from '@paylink/shared';
import { StepRoutes, boardQuerySchema, stepKeyByRoute } from '@paylink/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { PATIENT_READ_ACTIONS, STAFF_READ_ACTIONS, writeAudit, type Actor } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { personalLinkUrl } from '../links/index.js';
import { stateSqlOn } from './staff-link-queries.js';
import { practiceTimeZone } from '../app-config/index.js';

type BoardQuery = z.output<typeof boardQuerySchema>;

/**
 * Filters as SQL: the parts every board query shares (search, state, dates, coordinator). Search reads link `l`; the
 * others read `t`, link `l` or link_progress `p` (which carries copies of status, expires_at, created_at, created_by).
 */
function linkFilters(
  q: { q?: string; status?: string[]; createdFrom?: string; createdTo?: string; coordinatorId?: string },
  opts: { staffId: string; timeZone: string; params: unknown[]; t: 'l' | 'p' },
): string[] {
  const { t } = opts;
  const { params } = opts;
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (q.q) {
    const text = q.q.trim();
    const like = add(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const parts = [
      `(l.first_name || ' ' || l.last_name) ilike ${like}`,
      `(l.last_name || ' ' || l.first_name) ilike ${like}`,
      `l.email ilike ${like}`,
      `l.payor_name ilike ${like}`,
      `l.id = ${add(text)}`,
    ];
    const digits = text.replace(/\D/g, '');
    if (digits.length >= 4 && /^[\d\s().+-]+$/.test(text)) parts.push(`l.phone like ${add(`%${digits}%`)}`);
    where.push(`(${parts.join(' or ')})`);
  }
  const state = stateSqlOn(t);
  if (q.status?.length) where.push(`(${q.status.map((s) => `(${state[s]})`).join(' or ')})`);
  if (q.createdFrom)
    where.push(`${t}.created_at >= (${add(q.createdFrom)}::date)::timestamp at time zone ${add(opts.timeZone)}`);
  if (q.createdTo) {
    where.push(`${t}.created_at < (${add(q.createdTo)}::date + 1)::timestamp at time zone ${add(opts.timeZone)}`);
  }
  if (q.coordinatorId) {
    where.push(`${t}.created_by = ${add(q.coordinatorId === 'me' ? opts.staffId : q.coordinatorId)}`);
  }
  return where;
}

/**
 * The page's ids, newest first. A search's matches are found first (the trigram index), then sorted: left to pick,
 * PostgreSQL walked the whole created_at index newest first looking for 25 matches of a phone number that had 10
 * (280 ms at 100,000 links instead of 15).
 */
function pageSql(matching: string, search: boolean, n: number): string {
  const page = `order by created_at desc, id limit $${n + 1} offset $${n + 2}`;
  if (!search) return `pageids as (select * from (${matching}) m ${page})`;
  return `matches as materialized (${matching}), pageids as (select id, created_at from matches ${page})`;
}

interface BoardSqlRow {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  status: string;
  expires_at: Date;
  created_at: Date;
  language: 'en' | 'es';
  sign_in_method: 'sms' | 'email';
  payor_name: string | null;
  derived_status: BoardRow['status'];
  total: number;
  completed: number;
  reached: string;
  reached_pos: number | null;
  amount_cents: number | null;
  payment_type_id: number | null;
  payment_source_id: number | null;
  pay_status: 'chosen' | 'approved' | null;
  paid_at: Date | null;
  card_brand: string | null;
  card_last4: string | null;
  coord_id: string | null;
  coord_name: string | null;
  coord_email: string | null;
  last_activity_at: Date | null;
}

const DERIVED = `case when l.status = 'active' and l.expires_at <= now() then 'expired' else l.status end`;

/**
 * The links board: newest first, filtered and paged in the database. The step filter reads link_progress (migration
 * 0203: where each link stands, kept by triggers) by its (reached, created_at) index, joining link only to search;
 * the page's rows take their progress from the same table (docs/console.md).
 */
export async function queryBoard(opts: {
  ctx: AppContext;
  actor: Actor;
  staff: { userId: string; role: StaffRole };
  query: BoardQuery;
}): Promise<{ rows: BoardRow[]; total: number; cursor: string }> {
  const { ctx, query } = opts;
  const timeZone = await practiceTimeZone(ctx.db, ctx.config);
  const params: unknown[] = [];
  const byStep = !!query.step?.length;
  const t = byStep ? 'p' : 'l';
  const where = linkFilters(query, { staffId: opts.staff.userId, timeZone, params, t });
  let fromSql = 'from link l';
  let idSql = 'l.id';
  if (byStep) {
    const routes = query.step!.map((k) => (k === 'not_started' || k === 'done' ? k : StepRoutes[k]));
    params.push(routes);
    where.push(`p.reached = any($${params.length}::text[])`);
    fromSql = query.q ? 'from link_progress p join link l on l.id = p.link_id' : 'from link_progress p';
    idSql = 'p.link_id';
  }
  const whereSql = where.length ? `where ${where.join(' and ')}` : '';
  return ctx.db.transaction(async (tx) => {
    const count = await tx.query<{ n: number; now: Date }>(
      `select count(*)::int as n, now() as now ${fromSql} ${whereSql}`,
      params,
    );
    const page = [...params, query.limit, query.offset];
    const r = await tx.query<BoardSqlRow>(
      `with ${pageSql(`select ${idSql} as id, ${t}.created_at ${fromSql} ${whereSql}`, !!query.q, params.length)}
       select l.id, l.first_name, l.last_name, l.phone, l.email, l.status, l.expires_at, l.created_at, l.language,
         l.sign_in_method, l.payor_name, ${DERIVED} as derived_status,
         coalesce(pr.steps_total, 0) as total, coalesce(pr.steps_completed, 0) as completed,
         coalesce(pr.reached, 'not_started') as reached, pr.reached_pos,
         p.amount_cents, p.payment_type_id, p.payment_source_id, p.status as pay_status, p.paid_at, p.card_brand,
         p.card_last4, u.id as coord_id, u.name as coord_name, u.email as coord_email,
         (select max(a.at) from audit_event a where a.link_id = l.id and a.actor_type = 'link') as last_activity_at
       from pageids
       join link l on l.id = pageids.id
       left join link_progress pr on pr.link_id = l.id
       left join payment p on p.link_id = l.id
       left join staff_user u on u.id = l.created_by
       order by l.created_at desc, l.id`,
      page,
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.links_listed',
      details: { view: 'board', linkIds: r.rows.map((x) => x.id) },
    });
    return {
      rows: r.rows.map((x) => toBoardRow(x, ctx.config.publicUrl)),
      total: count.rows[0]!.n,
      cursor: new Date(count.rows[0]!.now).toISOString(),
    };
  });
}

function toBoardRow(x: BoardSqlRow, publicUrl: string): BoardRow {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  const reached =
    x.reached === 'not_started' || x.reached === 'done' ? x.reached : (stepKeyByRoute[x.reached] ?? 'not_started');
  return {
    id: x.id,
    url: personalLinkUrl(publicUrl, x.id),
    firstName: x.first_name,
    lastName: x.last_name,
    phone: x.phone,
    email: x.email,
    status: x.derived_status,
    language: x.language,
    signInMethod: x.sign_in_method,
    amount: x.amount_cents === null ? null : x.amount_cents / 100,
    paymentTypeId: x.payment_type_id,
    payer: x.payment_source_id === null ? null : x.payment_source_id === 2 ? 'payor' : 'patient',
    payorName: x.payor_name,
    progress: {
      completed: x.completed,
      total: x.total,
      reached,
      position: reached === 'not_started' ? 0 : reached === 'done' ? x.total + 1 : (x.reached_pos ?? 0),
    },
    lastActivityAt: iso(x.last_activity_at),
    payment: {
      status: x.pay_status ?? 'none',
      paidAt: iso(x.paid_at),
      cardBrand: x.card_brand,
      cardLast4: x.card_last4,
    },
    coordinator: x.coord_id ? { id: x.coord_id, name: x.coord_name ?? '', email: x.coord_email ?? '' } : null,
    createdAt: iso(x.created_at)!,
    expiresAt: iso(x.expires_at)!,
  };
}

/**
 * Links that changed since a cursor (patient activity and staff changes; staff reads do not count). Cheap: one index
 * range scan on audit_event.at; no patient data, so it is not audited. Two seconds of overlap cover transactions that
 * committed just after the previous answer was computed.
 */
export async function boardChanges(ctx: AppContext, since: string): Promise<{ linkIds: string[]; cursor: string }> {
  const t = Date.parse(since);
  if (Number.isNaN(t)) throw badRequest('since must be the cursor of a previous answer.', { since: 'is not a cursor' });
  const r = await ctx.db.query<{ link_id: string | null; now: Date }>(
    `select now() as now, (select coalesce(jsonb_agg(distinct link_id), '[]'::jsonb) from audit_event
       where at > $1::timestamptz - interval '2 seconds' and link_id is not null
         and not (actor_type = 'staff' and action = any($2::text[])) and not (action = any($3::text[]))) as link_id`,
    [new Date(t).toISOString(), STAFF_READ_ACTIONS, PATIENT_READ_ACTIONS],
  );
  const row = r.rows[0]!;
  return { linkIds: (row.link_id as unknown as string[]) ?? [], cursor: new Date(row.now).toISOString() };
}
