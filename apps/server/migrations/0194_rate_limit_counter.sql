-- Issue 26 (docs/decisions/0194): the per-address rate limits in PostgreSQL when several processes share a database
-- and no Redis is configured. One row per (group, address) window; unlogged: losing counters in a crash is harmless.
create unlogged table rate_limit_counter (
  key text primary key,
  count integer not null,
  expires_at timestamptz not null
);
create index rate_limit_counter_expires_idx on rate_limit_counter (expires_at);
