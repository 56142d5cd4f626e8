-- Issue 28 (docs/decisions/0212): the practice's default payment plans, offered on the console's new-link form. One
-- row for the practice holding the whole ordered list (shapes only, no money: the total is each patient's quote),
-- checked by the shared planTemplatesBodySchema before it is stored. No row = Paylink's two examples.
create table practice_plan_template (
  practice_id integer primary key default 1 check (practice_id = 1),
  templates jsonb not null check (jsonb_typeof(templates) = 'array'),
  updated_by uuid references staff_user (id),
  updated_at timestamptz not null default now()
);
