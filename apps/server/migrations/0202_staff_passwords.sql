-- Issue 29, item 3 (docs/decisions/0218): staff change and reset their passwords.
-- password_change_required_at: set by an admin's reset; until the user picks a new password, their console session
-- answers only the session, sign-out and change-password calls, and the CLI's login is refused.
alter table staff_user
  add column password_change_required_at timestamptz,
  add column password_changed_at timestamptz;

-- "Forgot password": every request, known address or not (the per-address and per-IP limits count them). A request
-- for an active account also holds the link's token: only its SHA-256, valid 30 minutes, used once.
create table staff_password_reset (
  id uuid primary key default gen_random_uuid(),
  requested_at timestamptz not null default now(),
  email text not null check (length(email) <= 320),
  ip text not null default '',
  staff_user_id uuid references staff_user (id),
  token_hash text unique check (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz,
  used_at timestamptz,
  check ((token_hash is null) = (expires_at is null))
);
create index staff_password_reset_email_idx on staff_password_reset (email, requested_at desc);
create index staff_password_reset_ip_idx on staff_password_reset (ip, requested_at desc);
