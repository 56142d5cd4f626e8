-- Links and the coordinator side (issue 2): demo data marker, staff token use, and boot tasks that must run once
-- even when several server processes start together on one database.

alter table link add column demo_label text;

alter table staff_token add column last_used_at timestamptz;

create table boot_task (
  name text primary key,
  done_at timestamptz not null default now()
);

create index staff_token_user_idx on staff_token (staff_user_id);
