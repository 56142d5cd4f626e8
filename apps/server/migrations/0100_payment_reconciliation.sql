-- Reconciliation (issue 10): every attempt that got a token is checked with the gateway (txnquery by our
-- ssl_merchant_txn_id) until its outcome is known. 'unknown' = the card may have been charged and we could not find
-- out yet (no new token meanwhile); 'duplicate' = a second approval for a link already paid, recorded and flagged
-- for a void (needs_attention).
alter table payment_attempt drop constraint payment_attempt_status_check;
alter table payment_attempt add constraint payment_attempt_status_check
  check (status in ('creating', 'open', 'unknown', 'closed', 'approved', 'duplicate', 'failed'));
alter table payment_attempt
  add column reconcile_due_at timestamptz,
  add column reconcile_tries integer not null default 0,
  add column reconcile_error text,
  add column reconciled_at timestamptz,
  add column approval_code text,
  add column card_brand text,
  add column card_last4 text,
  add column needs_attention boolean not null default false,
  add column attention_reason text,
  add column attention_resolved_at timestamptz;
create index payment_attempt_reconcile_due_idx on payment_attempt (reconcile_due_at) where reconcile_due_at is not null;
create index payment_attempt_attention_idx on payment_attempt (created_at) where needs_attention;
drop index payment_attempt_one_live_per_link;
create unique index payment_attempt_one_live_per_link on payment_attempt (link_id)
  where status in ('creating', 'open', 'unknown');
-- Attempts that already got a token and were never verified are checked once by the worker.
update payment_attempt set reconcile_due_at = now()
  where session_token is not null and status in ('open', 'closed');

-- The sandbox gateway answers txnquery by merchant transaction id.
create index sandbox_gateway_transaction_merchant_txn_idx on sandbox_gateway_transaction (merchant_txn_id);
