-- Foundation: practice, staff, links and their steps, the payment choice (the spec's linkpaymenthistory),
-- payment logs, patient sessions, audit events, and secrets shared by every server process.

create table practice (
  id integer primary key default 1 check (id = 1),
  name text not null,
  support_phone text not null default '',
  support_email text not null default '',
  sender_name text not null,
  logo_url text,
  updated_at timestamptz not null default now()
);

create table app_secret (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

create table staff_user (
  id uuid primary key default gen_random_uuid(),
  email text not null unique check (email = lower(email)),
  name text not null default '',
  password_hash text not null,
  role text not null default 'admin' check (role in ('admin', 'coordinator')),
  created_at timestamptz not null default now(),
  disabled_at timestamptz
);

-- Bearer tokens for the admin API and CLI; only a SHA-256 of the token is stored.
create table staff_token (
  id uuid primary key default gen_random_uuid(),
  staff_user_id uuid not null references staff_user (id),
  token_hash text not null unique,
  label text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  revoked_at timestamptz
);

create table link (
  id text primary key check (id ~ '^[A-Za-z0-9_-]{22,64}$'),
  first_name text not null check (length(first_name) between 1 and 100),
  last_name text not null check (length(last_name) between 1 and 100),
  address text not null default '',
  city text not null default '',
  state text not null default '',
  zip_code text not null default '',
  phone text not null default '',
  email text not null default '',
  payor_name text,
  payor_email text,
  procedure_description text not null default '',
  sign_in_method text not null check (sign_in_method in ('sms', 'email')),
  language text not null default 'en' check (language in ('en', 'es')),
  is_payment_link_locked boolean not null default false,
  status text not null default 'active' check (status in ('active', 'cancelled', 'completed')),
  expires_at timestamptz not null,
  created_by uuid references staff_user (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  cancelled_at timestamptz,
  completed_at timestamptz,
  check (sign_in_method <> 'sms' or phone <> ''),
  check (sign_in_method <> 'email' or email <> '')
);
create index link_status_idx on link (status, expires_at);
create index link_created_idx on link (created_at desc);

create table link_step (
  id integer generated always as identity primary key,
  link_id text not null references link (id),
  position smallint not null check (position >= 1),
  route_path text not null,
  document_url text,
  status_id smallint not null default 1 check (status_id in (1, 2, 4)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  unique (link_id, position),
  unique (link_id, route_path)
);

-- The payment chosen for a link and, once approved, its result. One row per link.
create table payment (
  id integer generated always as identity primary key,
  link_id text not null unique references link (id),
  payment_type_id smallint not null check (payment_type_id in (1, 2)),
  payment_source_id smallint not null check (payment_source_id in (1, 2)),
  amount_cents integer not null check (amount_cents > 0),
  status text not null default 'chosen' check (status in ('chosen', 'approved')),
  transaction_id text,
  approval_code text,
  card_brand text,
  card_last4 text check (card_last4 is null or card_last4 ~ '^[0-9]{4}$'),
  payor_full_name text,
  payor_email text,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'approved' or (transaction_id is not null and paid_at is not null))
);
create unique index payment_one_approved_per_link on payment (link_id) where status = 'approved';
create unique index payment_transaction_id_unique on payment (transaction_id) where transaction_id is not null;

-- Declines and errors reported by the client; payload is redacted before it is stored.
create table payment_log (
  id integer generated always as identity primary key,
  link_id text not null references link (id),
  link_step_id integer references link_step (id),
  payload text not null,
  created_at timestamptz not null default now()
);
create index payment_log_link_idx on payment_log (link_id, created_at);

-- Patient sessions: a signed token names one of these; revoking the row ends the session on every process.
create table patient_session (
  id uuid primary key default gen_random_uuid(),
  link_id text not null references link (id),
  method text not null check (method in ('sms', 'email', 'test')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index patient_session_link_idx on patient_session (link_id);

create table audit_event (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_type text not null check (actor_type in ('link', 'staff', 'system')),
  actor_id text,
  action text not null,
  link_id text,
  request_id text,
  ip text,
  details jsonb not null default '{}'::jsonb
);
create index audit_event_link_idx on audit_event (link_id, at);

-- Audit rows are append-only: nothing may update or delete them.
create function audit_event_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_event rows are append-only';
end;
$$;
create trigger audit_event_no_update before update or delete on audit_event
  for each row execute function audit_event_append_only();
