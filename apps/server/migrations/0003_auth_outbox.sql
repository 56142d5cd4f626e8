-- Sign-in (issue 3): SMS one-time codes, e-mailed sign-in tokens, send counters, and the durable message outbox.

-- One row per code sent. Only an HMAC-SHA256 of the code (keyed with app_secret 'auth-otp' and bound to the link)
-- is stored. A row is usable while consumed_at is null, expires_at is in the future and attempts < max_attempts.
create table otp_challenge (
  id uuid primary key default gen_random_uuid(),
  link_id text not null references link (id),
  code_hash text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  attempts smallint not null default 0 check (attempts >= 0),
  max_attempts smallint not null check (max_attempts >= 1),
  consumed_at timestamptz,
  -- a newer code replaces an older one: the older row is closed, not deleted (audit trail)
  superseded_at timestamptz
);
create index otp_challenge_link_idx on otp_challenge (link_id, created_at desc);

-- E-mailed sign-in tokens: only an HMAC of the token is stored; single use.
create table email_signin_token (
  id uuid primary key default gen_random_uuid(),
  link_id text not null references link (id),
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index email_signin_token_link_idx on email_signin_token (link_id, created_at desc);

-- Every accepted send request (matched e-mail or not), counted for the resend cooldown and the hourly cap. Rows live in
-- the database so several server processes enforce one limit; the link row is locked while counting.
create table auth_send (
  id bigint generated always as identity primary key,
  link_id text not null references link (id),
  channel text not null check (channel in ('sms', 'email')),
  created_at timestamptz not null default now()
);
create index auth_send_link_idx on auth_send (link_id, created_at desc);

-- The durable outbox: written in the same transaction as the event that causes a message, delivered by the worker
-- (select ... for update skip locked) with retries and exponential backoff. A claimed row's next_attempt_at is pushed
-- forward as a lease, so a process that dies mid-send leaves the row to be retried, never lost.
create table outbox_message (
  id uuid primary key default gen_random_uuid(),
  channel text not null check (channel in ('sms', 'email')),
  kind text not null,
  to_address text not null check (length(to_address) between 1 and 320),
  subject text,
  body_text text not null,
  body_html text,
  link_id text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  last_error text,
  provider text,
  provider_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  check (status <> 'sent' or sent_at is not null)
);
create index outbox_message_due_idx on outbox_message (next_attempt_at) where status = 'pending';
create index outbox_message_to_idx on outbox_message (to_address, created_at desc);
create index outbox_message_created_idx on outbox_message (created_at desc);
