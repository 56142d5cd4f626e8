-- Practice console sign-in (issue 13): cookie sessions with an idle time-out, TOTP two-factor with recovery codes
-- (secrets AES-256-GCM encrypted with app_secret 'staff-totp'),
-- and the failed sign-in record that drives the per-account and per-IP growing delay (never a hard lock).

alter table staff_user
  add column totp_secret text,
  add column totp_pending_secret text,
  add column totp_enabled_at timestamptz,
  -- the 30-second step of the last accepted code: a code works once (no replay within its window)
  add column totp_last_step bigint,
  add column last_sign_in_at timestamptz;

-- One row per console sign-in. The cookie holds a random token; only its SHA-256 is kept.
create table staff_session (
  id uuid primary key default gen_random_uuid(),
  staff_user_id uuid not null references staff_user (id),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  idle_expires_at timestamptz not null,
  absolute_expires_at timestamptz not null,
  revoked_at timestamptz,
  -- production mode, two-factor not yet set up: only the session and enrolment routes answer
  enrolment_only boolean not null default false,
  ip text,
  user_agent text
);
create index staff_session_user_idx on staff_session (staff_user_id) where revoked_at is null;

-- Recovery codes: SHA-256 of each code; a code works once.
create table staff_recovery_code (
  id uuid primary key default gen_random_uuid(),
  staff_user_id uuid not null references staff_user (id),
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  used_at timestamptz,
  unique (staff_user_id, code_hash)
);

-- Failed sign-ins (wrong password or code), by the e-mail tried and by the IP. The delay before the next attempt
-- grows with the count in the last 15 minutes; a right password after the delay always works.
create table staff_sign_in_failure (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  email text not null,
  ip text not null default ''
);
create index staff_sign_in_failure_email_idx on staff_sign_in_failure (email, at desc);
create index staff_sign_in_failure_ip_idx on staff_sign_in_failure (ip, at desc);
