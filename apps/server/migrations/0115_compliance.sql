-- Issue 11, PCI DSS 6.4.3 / 11.6.1: CSP violation reports sent by browsers, and the payment page tamper checks.
create table if not exists csp_report (
  id bigserial primary key,
  received_at timestamptz not null default now(),
  document_uri text not null default '',
  blocked_uri text not null default '',
  effective_directive text not null default '',
  source_file text not null default '',
  line_number integer,
  sample text not null default '',
  user_agent text not null default ''
);
create index if not exists csp_report_received_idx on csp_report (received_at desc);

create table if not exists tamper_check (
  id bigserial primary key,
  ran_at timestamptz not null default now(),
  trigger text not null check (trigger in ('schedule', 'staff')),
  ok boolean not null,
  page_url text not null,
  findings jsonb not null default '[]',
  -- SHA-384 of each script the page loaded, by URL (third-party scripts included: a change is reported).
  script_hashes jsonb not null default '{}'
);
create index if not exists tamper_check_ran_idx on tamper_check (ran_at desc);

-- One row: when the next scheduled check is due (claimed atomically, so several processes run it once).
create table if not exists tamper_check_schedule (
  id integer primary key check (id = 1),
  next_run_at timestamptz not null
);
