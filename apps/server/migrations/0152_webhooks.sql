-- Outbound webhooks (issue 15): endpoints registered by admins, events written in the transaction of the change that
-- causes them, and one delivery row per (event, endpoint) worked like the message outbox: claimed with
-- `for update skip locked` and a lease, retried with exponential backoff for 3 days. Every attempt is recorded.
create table webhook_endpoint (
  id uuid primary key default gen_random_uuid(),
  url text not null check (length(url) between 8 and 2000),
  events text[] not null check (cardinality(events) >= 1),
  -- The signing secret (whsec_...): needed in clear to sign; shown to staff once, at creation and rotation.
  secret text not null,
  description text not null default '',
  created_by uuid references staff_user (id),
  created_at timestamptz not null default now(),
  secret_rotated_at timestamptz,
  deleted_at timestamptz
);

create table webhook_event (
  id text primary key,
  type text not null,
  link_id text,
  -- The exact JSON body sent to every endpoint (signed as is).
  body text not null,
  created_at timestamptz not null default now()
);
create index webhook_event_created_idx on webhook_event (created_at desc);

create table webhook_delivery (
  id uuid primary key default gen_random_uuid(),
  event_id text not null references webhook_event (id),
  endpoint_id uuid not null references webhook_endpoint (id),
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  give_up_at timestamptz not null default now() + interval '3 days',
  last_status_code integer,
  last_error text,
  replay_of uuid references webhook_delivery (id),
  created_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at) where status = 'pending';
create index webhook_delivery_endpoint_idx on webhook_delivery (endpoint_id, created_at desc);

create table webhook_attempt (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references webhook_delivery (id),
  at timestamptz not null default now(),
  status_code integer,
  error text,
  duration_ms integer not null
);
create index webhook_attempt_delivery_idx on webhook_attempt (delivery_id, at);
