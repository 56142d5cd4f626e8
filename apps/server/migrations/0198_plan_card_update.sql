-- Issue 28 (docs/decisions/0211): the patient replaces a plan's card after a decline or before it expires.
-- One row per update attempt: its id is the merchant transaction id of the card verification (ccverify with
-- ssl_get_token=Y) the browser runs, so the server only accepts the gateway's verification of this very attempt.
create table card_update (
  id text primary key check (id ~ '^[A-Za-z0-9]{16,40}$'),
  link_id text not null references link (id),
  status text not null default 'open' check (status in ('open', 'stored')),
  gateway_txn_id text unique,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  check ((status = 'stored') = (gateway_txn_id is not null and completed_at is not null))
);
create index card_update_link_idx on card_update (link_id, created_at);

-- A card stored by an update (not by a sale) names its verification; the patient was asked once to replace a card
-- expiring before an open instalment (expiry_notified_at).
alter table stored_card
  add column card_update_id text references card_update (id),
  add column expiry_notified_at timestamptz;

-- The sandbox gateway's verification sessions (ccverify) charge nothing: their amount is 0.
alter table sandbox_gateway_session drop constraint sandbox_gateway_session_amount_cents_check;
alter table sandbox_gateway_session add constraint sandbox_gateway_session_amount_cents_check check (amount_cents >= 0);
