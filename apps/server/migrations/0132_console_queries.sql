-- Practice console (issue 13): practice settings overridden from the console (env stays the default), and indexes
-- for the links board, its change feed, the payments report and the funnel.

create table practice_override (
  id integer primary key default 1 check (id = 1),
  name text,
  support_phone text,
  support_email text,
  logo_url text,
  time_zone text,
  updated_at timestamptz not null default now(),
  updated_by uuid references staff_user (id)
);

create index link_created_by_idx on link (created_by, created_at desc);
create index audit_event_at_idx on audit_event (at);
create index payment_paid_at_idx on payment (paid_at) where status = 'approved';
create index payment_created_at_idx on payment (created_at);
create index patient_session_link_created_idx on patient_session (link_id, created_at);
create index outbox_message_link_idx on outbox_message (link_id, created_at) where link_id is not null;
