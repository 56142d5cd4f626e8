-- The sandbox gateway's Card Manager in a table of its own (decision 0205's follow-up, decision 0213). Stored cards
-- were `sandbox_gateway_session` rows that could never be payment sessions, and txnquery found the card a sale stored
-- by the session's merchant_txn_id, which has no index: a scan of every session row per query. Sandbox only: real
-- Converge keeps its cards itself.
create table sandbox_gateway_card (
  token text primary key check (token ~ '^[0-9]{16}$'),
  merchant_id text not null,
  -- The sale that stored (or last re-stored) the card: its row holds brand, last 4 and names.
  stored_by_txn_id text not null references sandbox_gateway_transaction (txn_id),
  expiry text not null check (expiry ~ '^(0[1-9]|1[0-2])[0-9]{2}$'),
  first_name text,
  last_name text,
  created_at timestamptz not null default now()
);
create index sandbox_gateway_card_stored_by_idx on sandbox_gateway_card (stored_by_txn_id);

-- A merchant-initiated sale names the stored card it charged (it was read from its session token, `mit:<token>:…`).
alter table sandbox_gateway_transaction add column card_token text;

insert into sandbox_gateway_card (token, merchant_id, stored_by_txn_id, expiry, first_name, last_name, created_at)
select s.token, s.merchant_id, s.merchant_txn_id,
       to_char((s.expires_at at time zone 'UTC') - interval '1 second', 'MMYY'), s.first_name, s.last_name, s.created_at
  from sandbox_gateway_session s
  join sandbox_gateway_transaction t on t.txn_id = s.merchant_txn_id
 where s.token ~ '^[0-9]{16}$' and s.used_at is not null;
delete from sandbox_gateway_session s
 where s.token ~ '^[0-9]{16}$' and s.used_at is not null
   and exists (select 1 from sandbox_gateway_card c where c.token = s.token)
   and not exists (select 1 from sandbox_gateway_transaction t where t.session_token = s.token)
   and not exists (select 1 from sandbox_gateway_3ds d where d.session_token = s.token);
update sandbox_gateway_transaction set card_token = substring(session_token from '^mit:([0-9]{16}):')
 where session_token like 'mit:%';
