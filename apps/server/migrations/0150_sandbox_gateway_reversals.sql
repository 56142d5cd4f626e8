-- The sandbox gateway's batch settlement, voids and returns (issue 15). A sale is settled when its batch closed
-- (settled_at, set by the sandbox's ccsettle call or 24 hours after the sale); a void is allowed only before that, a
-- return only after, and returns never add up to more than the sale. Only apps/server/src/sandbox/gateway uses these.
alter table sandbox_gateway_transaction add column settled_at timestamptz;
alter table sandbox_gateway_transaction add column voided_at timestamptz;

create table sandbox_gateway_reversal (
  txn_id text primary key,
  parent_txn_id text not null references sandbox_gateway_transaction (txn_id),
  merchant_id text not null,
  kind text not null check (kind in ('VOID', 'RETURN')),
  amount_cents integer not null check (amount_cents > 0),
  created_at timestamptz not null default now()
);
create index sandbox_gateway_reversal_parent_idx on sandbox_gateway_reversal (parent_txn_id);
-- One void per sale.
create unique index sandbox_gateway_reversal_one_void on sandbox_gateway_reversal (parent_txn_id) where kind = 'VOID';
