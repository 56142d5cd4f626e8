-- Refunds and voids (issue 15) and the Idempotency-Key store of every mutating admin route.

-- What has been given back of a payment, in cents. The refund rows are the record; this is their committed sum,
-- kept on the payment so lists and exports read it in one place. Never more than the payment.
alter table payment add column refunded_cents integer not null default 0 check (refunded_cents >= 0);
alter table payment add constraint payment_refund_within_amount check (refunded_cents <= amount_cents);

-- One row per refund request that reached the gateway stage. A pending row reserves its amount (so concurrent
-- requests never give back more than the payment, checked under the payment's row lock); a failed row releases it.
create table refund (
  id uuid primary key default gen_random_uuid(),
  link_id text not null references link (id),
  payment_id integer not null references payment (id),
  -- void: the unsettled sale cancelled at the gateway (ccvoid, whole amount) · return: money sent back (ccreturn)
  kind text not null check (kind in ('void', 'return')),
  amount_cents integer not null check (amount_cents > 0),
  -- pending: sent to the gateway, no answer yet (or the answer was lost: staff check the gateway)
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  reason text not null check (length(reason) between 1 and 500),
  original_transaction_id text not null,
  gateway_transaction_id text unique,
  failure_code text,
  failure_message text,
  requested_by uuid references staff_user (id),
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  check (status <> 'succeeded' or (gateway_transaction_id is not null and completed_at is not null))
);
create index refund_payment_idx on refund (payment_id, created_at);
create index refund_created_idx on refund (created_at desc);
-- A sale is voided at most once.
create unique index refund_one_void_per_payment on refund (payment_id) where kind = 'void' and status <> 'failed';

-- Idempotency-Key on mutating admin routes: the first request with a key (per staff user and route) runs; its answer
-- is stored and replayed to every later request with the same key; a concurrent one waits for it.
create table idempotency_key (
  staff_user_id uuid not null references staff_user (id),
  key text not null check (length(key) between 1 and 255),
  route text not null,
  request_hash text not null,
  status text not null default 'in_progress' check (status in ('in_progress', 'done')),
  response_status integer,
  response_type text,
  response_body text,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (staff_user_id, key, route)
);
create index idempotency_key_created_idx on idempotency_key (created_at);
