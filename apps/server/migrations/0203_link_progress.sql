-- The console at 100,000 and 1,000,000 links (issue 30, decision 0224).
--
-- 1. link_progress: one row per link with its milestones (where it stands in its steps, first sent/opened/signed in,
--    each funnel step's completion, paid) and copies of the link columns the board's filters and the funnel's window
--    read (created_at, created_by, status, expires_at). The board's step filter and the funnel read this table by
--    index instead of aggregating link_step, audit_event and patient_session per request.
-- 2. Kept right by STATEMENT-level triggers with transition tables on every table it is derived from, so every writer
--    (the app, the CLI, tests, a bulk SQL seed) keeps it right, and a bulk insert of millions of rows costs one
--    set-based statement. A trigger only writes (and so only locks) a progress row whose values change: repeated
--    events (a resend, a second sign-in, an audit row of any other kind) take no lock.
-- 3. pg_trgm GIN indexes for the board's substring search.

create extension if not exists pg_trgm;

create table link_progress (
  link_id text primary key references link (id) on delete cascade,
  -- Copies of the link's columns (kept by the link's triggers), so filters and the funnel need not join link.
  created_at timestamptz not null,
  created_by uuid,
  status text not null,
  expires_at timestamptz not null,
  -- Steps: how many, how many completed, where the link stands ('not_started' without steps, 'done' when every step
  -- is completed, else the route of the first step not completed) and that step's position.
  steps_total smallint not null default 0,
  steps_completed smallint not null default 0,
  reached text not null default 'not_started',
  reached_pos smallint,
  has_payor boolean not null default false,
  -- The funnel's milestones (first time each happened; a step's completion as link_step.completed_at holds it).
  sent_at timestamptz,
  opened_at timestamptz,
  signed_in_at timestamptz,
  patient_info_at timestamptz,
  invoice_at timestamptz,
  patient_id_at timestamptz,
  payor_id_at timestamptz,
  contract_at timestamptz,
  payment_at timestamptz,
  paid_at timestamptz
);

-- The funnel's window (a created_at range) and the board's step filter (+ state, newest first; the count reads the
-- index alone).
create index link_progress_created_idx on link_progress (created_at);
create index link_progress_reached_idx on link_progress (reached, created_at desc, link_id) include (status, expires_at);

-- Steps of the given links (distinct ids), recomputed from link_step (insert, update and delete of steps end here).
create function link_progress_sync_steps(ids text[]) returns void language plpgsql set jit = off as $$
begin
  -- One aggregate per link, by the (link_id, position) index: linear and planned the same for one link or a
  -- million. (A grouped join of link_step with the ids was estimated at 200 groups, whatever the ids, and became a
  -- nested loop over a million: quadratic.) EXECUTE plans with the array's real length.
  execute $sql$
    with v as (
      select c.link_id, a.total, a.completed,
        case when a.total = 0 then 'not_started' when a.completed = a.total then 'done' else a.reached_route end
          as reached,
        a.reached_pos, coalesce(a.has_payor, false) as has_payor, a.patient_info_at, a.invoice_at, a.patient_id_at,
        a.payor_id_at, a.contract_at, a.payment_at
      from unnest($1::text[]) as c (link_id)
      cross join lateral (
        select count(*)::smallint as total, (count(*) filter (where s.status_id = 4))::smallint as completed,
          min(s.position) filter (where s.status_id <> 4) as reached_pos,
          (array_agg(s.route_path order by s.position) filter (where s.status_id <> 4))[1] as reached_route,
          bool_or(s.route_path = '/payoriddocs') as has_payor,
          max(s.completed_at) filter (where s.route_path = '/patientinfo') as patient_info_at,
          max(s.completed_at) filter (where s.route_path = '/patientinvoicedetail') as invoice_at,
          max(s.completed_at) filter (where s.route_path = '/patientiddocs') as patient_id_at,
          max(s.completed_at) filter (where s.route_path = '/payoriddocs') as payor_id_at,
          max(s.completed_at) filter (where s.route_path = '/patientcontract') as contract_at,
          max(s.completed_at) filter (where s.route_path = '/paymentauthorization') as payment_at
        from link_step s where s.link_id = c.link_id
      ) a
    )
    update link_progress p set steps_total = v.total, steps_completed = v.completed, reached = v.reached,
      reached_pos = v.reached_pos, has_payor = v.has_payor, patient_info_at = v.patient_info_at,
      invoice_at = v.invoice_at, patient_id_at = v.patient_id_at, payor_id_at = v.payor_id_at,
      contract_at = v.contract_at, payment_at = v.payment_at
    from v
    where p.link_id = v.link_id
      and (p.steps_total, p.steps_completed, p.reached, p.reached_pos, p.has_payor, p.patient_info_at, p.invoice_at,
        p.patient_id_at, p.payor_id_at, p.contract_at, p.payment_at)
      is distinct from (v.total, v.completed, v.reached, v.reached_pos, v.has_payor, v.patient_info_at, v.invoice_at,
        v.patient_id_at, v.payor_id_at, v.contract_at, v.payment_at)
  $sql$ using ids;
end;
$$;

-- Paid: the approved payment's paid_at (a payment approved, voided back or removed), for distinct ids; one probe of
-- payment's link_id index each.
create function link_progress_sync_paid(ids text[]) returns void language plpgsql set jit = off as $$
begin
  execute $sql$
    with v as (
      select c.link_id, (select max(pay.paid_at) from payment pay
        where pay.link_id = c.link_id and pay.status = 'approved') as paid_at
      from unnest($1::text[]) as c (link_id)
    )
    update link_progress p set paid_at = v.paid_at from v
    where p.link_id = v.link_id and p.paid_at is distinct from v.paid_at
  $sql$ using ids;
end;
$$;

-- link: a new link gets its row; a changed link its copied columns.
create function link_progress_link_inserted() returns trigger language plpgsql as $$
begin
  insert into link_progress (link_id, created_at, created_by, status, expires_at)
  select n.id, n.created_at, n.created_by, n.status, n.expires_at from new_rows n
  on conflict (link_id) do nothing;
  return null;
end;
$$;
create function link_progress_link_updated() returns trigger language plpgsql as $$
begin
  update link_progress p set created_at = n.created_at, created_by = n.created_by, status = n.status,
    expires_at = n.expires_at
  from new_rows n
  where p.link_id = n.id
    and (p.created_at, p.created_by, p.status, p.expires_at)
      is distinct from (n.created_at, n.created_by, n.status, n.expires_at);
  return null;
end;
$$;
create trigger link_progress_link_ins after insert on link referencing new table as new_rows
  for each statement execute function link_progress_link_inserted();
create trigger link_progress_link_upd after update on link referencing new table as new_rows
  for each statement execute function link_progress_link_updated();

-- link_step: PostgreSQL allows one event per trigger with transition tables, hence three triggers, one function.
create function link_progress_steps_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform link_progress_sync_steps(array(select distinct link_id from new_rows));
  elsif tg_op = 'DELETE' then
    perform link_progress_sync_steps(array(select distinct link_id from old_rows));
  else
    perform link_progress_sync_steps(array(select link_id from new_rows union select link_id from old_rows));
  end if;
  return null;
end;
$$;
create trigger link_progress_steps_ins after insert on link_step referencing new table as new_rows
  for each statement execute function link_progress_steps_changed();
create trigger link_progress_steps_upd after update on link_step referencing old table as old_rows new table as new_rows
  for each statement execute function link_progress_steps_changed();
create trigger link_progress_steps_del after delete on link_step referencing old table as old_rows
  for each statement execute function link_progress_steps_changed();

-- payment: same shape.
create function link_progress_payment_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform link_progress_sync_paid(array(select distinct link_id from new_rows where status = 'approved'));
  elsif tg_op = 'DELETE' then
    perform link_progress_sync_paid(array(select distinct link_id from old_rows where status = 'approved'));
  else
    perform link_progress_sync_paid(array(
      select n.link_id from new_rows n where n.status = 'approved'
      union select o.link_id from old_rows o where o.status = 'approved'));
  end if;
  return null;
end;
$$;
create trigger link_progress_payment_ins after insert on payment referencing new table as new_rows
  for each statement execute function link_progress_payment_changed();
create trigger link_progress_payment_upd after update on payment referencing old table as old_rows new table as new_rows
  for each statement execute function link_progress_payment_changed();
create trigger link_progress_payment_del after delete on payment referencing old table as old_rows
  for each statement execute function link_progress_payment_changed();

-- patient_session: the first sign-in (sessions are never updated in a way that matters here; a later session does
-- not move the first).
create function link_progress_session_inserted() returns trigger language plpgsql as $$
begin
  update link_progress p set signed_in_at = n.at
  from (select link_id, min(created_at) as at from new_rows group by link_id) n
  where p.link_id = n.link_id and (p.signed_in_at is null or n.at < p.signed_in_at);
  return null;
end;
$$;
create trigger link_progress_session_ins after insert on patient_session referencing new table as new_rows
  for each statement execute function link_progress_session_inserted();

-- audit_event (append-only): the first "sent" (sent or resent) and the first "opened" (phone lookup). Every other
-- audit row costs the trigger one scan of its own transition table and nothing else.
create function link_progress_audit_inserted() returns trigger language plpgsql as $$
begin
  update link_progress p set sent_at = least(p.sent_at, n.sent), opened_at = least(p.opened_at, n.opened)
  from (
    select link_id, min(at) filter (where action in ('link.sent', 'link.resent')) as sent,
      min(at) filter (where action = 'patient.phone_lookup') as opened
    from new_rows
    where link_id is not null and action in ('link.sent', 'link.resent', 'patient.phone_lookup')
    group by link_id
  ) n
  where p.link_id = n.link_id
    and ((n.sent is not null and (p.sent_at is null or n.sent < p.sent_at))
      or (n.opened is not null and (p.opened_at is null or n.opened < p.opened_at)));
  return null;
end;
$$;
create trigger link_progress_audit_ins after insert on audit_event referencing new table as new_rows
  for each statement execute function link_progress_audit_inserted();

-- Backfill: the links that exist, set-based.
insert into link_progress (link_id, created_at, created_by, status, expires_at, sent_at, opened_at, signed_in_at)
select l.id, l.created_at, l.created_by, l.status, l.expires_at,
  (select min(a.at) from audit_event a where a.link_id = l.id and a.action in ('link.sent', 'link.resent')),
  (select min(a.at) from audit_event a where a.link_id = l.id and a.action = 'patient.phone_lookup'),
  (select min(ps.created_at) from patient_session ps where ps.link_id = l.id)
from link l;
select link_progress_sync_steps(array(select distinct link_id from link_step));
select link_progress_sync_paid(array(select distinct link_id from payment where status = 'approved'));

-- The board's search: substring (ilike '%…%') over names both ways round, e-mail, payor and phone digits. One
-- multicolumn GIN index serves each of the OR's arms (a BitmapOr over it).
create index link_search_trgm_idx on link using gin (
  (first_name || ' ' || last_name) gin_trgm_ops,
  (last_name || ' ' || first_name) gin_trgm_ops,
  email gin_trgm_ops,
  payor_name gin_trgm_ops,
  phone gin_trgm_ops
);

-- The funnel's stalled links: the last patient activity of the window's links, read from the index alone (one range
-- over the window) instead of every audit row of the window, most of which are not the patient's.
create index audit_event_link_actor_at_idx on audit_event (at, link_id) where actor_type = 'link';

analyze link_progress;
