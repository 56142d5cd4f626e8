-- Card payments: one payment attempt per gateway session token (its id is the ssl_merchant_txn_id the gateway
-- echoes back, which binds an approval to a link and an amount), and the sandbox gateway's own tables.

create table payment_attempt (
  id text primary key check (id ~ '^[A-Za-z0-9]{16,40}$'),
  link_id text not null references link (id),
  payment_id integer not null references payment (id),
  amount_cents integer not null check (amount_cents > 0),
  gateway text not null check (gateway in ('converge', 'sandbox')),
  -- creating: row written, token being fetched · open: token handed out · closed: a decline/error was reported or the
  -- token expired · approved: the verified approval was recorded · failed: the gateway refused to issue a token
  status text not null default 'creating' check (status in ('creating', 'open', 'closed', 'approved', 'failed')),
  -- Single-use, short-lived and bound to this amount; kept so concurrent submits share one token (one charge).
  session_token text unique,
  transaction_id text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'open' or session_token is not null),
  check (status <> 'approved' or transaction_id is not null)
);
create index payment_attempt_link_idx on payment_attempt (link_id, created_at desc);
create unique index payment_attempt_one_approved_per_link on payment_attempt (link_id) where status = 'approved';
-- At most one live token per link: concurrent submits share it.
create unique index payment_attempt_one_live_per_link on payment_attempt (link_id)
  where status in ('creating', 'open');

-- The sandbox gateway: a separate service that happens to share the database. Nothing outside
-- apps/server/src/sandbox/gateway reads or writes these tables. Card data: brand and last 4 only.
create table sandbox_gateway_session (
  token text primary key,
  merchant_id text not null,
  amount_cents integer not null check (amount_cents > 0),
  merchant_txn_id text,
  first_name text,
  last_name text,
  efs_token text unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

create table sandbox_gateway_3ds (
  id uuid primary key,
  session_token text not null references sandbox_gateway_session (token),
  card_brand text not null,
  card_last4 text not null check (card_last4 ~ '^[0-9]{4}$'),
  purchase_amount_cents integer not null,
  challenge boolean not null default false,
  trans_status text,
  trans_status_reason text,
  eci text,
  authentication_value text,
  ds_trans_id uuid not null,
  acs_trans_id uuid not null,
  message_version text not null default '2.2.0',
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index sandbox_gateway_3ds_session_idx on sandbox_gateway_3ds (session_token);

create table sandbox_gateway_transaction (
  txn_id text primary key,
  session_token text not null unique references sandbox_gateway_session (token),
  merchant_id text not null,
  merchant_txn_id text,
  amount_cents integer not null,
  result text not null check (result in ('0', '1')),
  result_message text not null,
  approval_code text check (approval_code is null or approval_code ~ '^[A-Z0-9]{6}$'),
  card_brand text not null,
  card_last4 text not null check (card_last4 ~ '^[0-9]{4}$'),
  first_name text,
  last_name text,
  avs_response text,
  cvv2_response text,
  eci_ind text,
  three_ds_server_trans_id uuid,
  three_ds_trans_status text,
  created_at timestamptz not null default now(),
  check (result <> '0' or approval_code is not null)
);
