-- Messaging (issue 14): link sends and reminders on the durable outbox, delivery statuses, consent (opt-outs), the
-- reminder plan, per-link reminder state, and staff notifications.

-- Delivery status as the provider reports it: Twilio queued/sent/delivered/undelivered/failed (status callbacks),
-- SMTP accepted/refused (the relay's answer). `status` stays the outbox's own state (pending/sent/failed).
alter table outbox_message add column delivery_status text
  check (delivery_status in ('queued', 'sent', 'delivered', 'undelivered', 'failed', 'accepted', 'refused'));
alter table outbox_message add column delivery_error text;
alter table outbox_message add column delivery_updated_at timestamptz;
-- Extra e-mail headers (List-Unsubscribe, List-Unsubscribe-Post).
alter table outbox_message add column headers jsonb;
create index outbox_message_provider_id_idx on outbox_message (provider_id) where provider_id is not null;
-- outbox_message_link_idx (link_id, created_at) also comes from 0132_console_queries.sql (issue 13a).
create index if not exists outbox_message_link_idx on outbox_message (link_id, created_at) where link_id is not null;

-- A coordinator's per-link switch for reminders.
alter table link add column reminders_enabled boolean not null default true;

-- Consent: a phone number (E.164) or e-mail address (lower case) that opted out of link sends and reminders, per
-- practice. Sign-in codes the patient asks for are not affected. Opting back in deletes the row (audited).
create table message_opt_out (
  practice_id integer not null default 1,
  channel text not null check (channel in ('sms', 'email')),
  address text not null check (length(address) between 1 and 320),
  source text not null,
  keyword text,
  opted_out_at timestamptz not null default now(),
  primary key (practice_id, channel, address)
);

-- One row per link that was sent: when to look at it next (due-time index), and what it already got.
create table link_reminder (
  link_id text primary key references link (id),
  channel text not null check (channel in ('sms', 'email')),
  first_sent_at timestamptz not null,
  last_sent_at timestamptz not null,
  next_check_at timestamptz,
  last_reminder_at timestamptz,
  done_kinds text[] not null default '{}',
  reminders_sent integer not null default 0,
  updated_at timestamptz not null default now()
);
create index link_reminder_due_idx on link_reminder (next_check_at) where next_check_at is not null;

-- The practice's reminder plan, set in the console; without a row the REMINDER_* settings apply.
-- Durations in seconds; null = that reminder is off.
create table reminder_plan (
  practice_id integer primary key default 1 check (practice_id = 1),
  unopened_after_seconds integer check (unopened_after_seconds > 0),
  stalled_after_seconds integer check (stalled_after_seconds > 0),
  before_expiry_seconds integer[] not null default '{}',
  quiet_start smallint check (quiet_start between 0 and 23),
  quiet_end smallint check (quiet_end between 0 and 23),
  min_gap_seconds integer check (min_gap_seconds >= 0),
  updated_by uuid references staff_user (id),
  updated_at timestamptz not null default now(),
  check ((quiet_start is null) = (quiet_end is null))
);

-- Staff notifications (link paid, payment needs attention): each staff member's choice, and a once-only ledger.
create table staff_notification_pref (
  staff_user_id uuid primary key references staff_user (id),
  on_paid boolean not null default true,
  on_attention boolean not null default true,
  updated_at timestamptz not null default now()
);
create table staff_notification_sent (
  kind text not null,
  ref text not null,
  created_at timestamptz not null default now(),
  primary key (kind, ref)
);
