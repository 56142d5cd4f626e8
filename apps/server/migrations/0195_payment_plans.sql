-- Issue 28 (docs/decisions/0204): payment plans. A link may carry one plan: its total (the quote) and the shape of
-- the balance (one charge on a date, or N instalments every week, two weeks or month). The instalments are stored
-- when the deposit is approved (the balance is total − paid, and the patient picks the deposit); before that the
-- staff views project them. Money in bigint cents.
create table payment_plan (
  id bigserial primary key,
  link_id text not null unique references link (id),
  total_cents bigint not null check (total_cents > 0),
  kind text not null check (kind in ('single', 'installments')),
  installment_count integer not null,
  every text check (every in ('week', 'two_weeks', 'month')),
  -- The balance date of a single charge, the first instalment's date otherwise (the practice's calendar day).
  first_due_on date not null,
  status text not null default 'pending' check (status in ('pending', 'active', 'paused', 'cancelled', 'completed')),
  -- Set when the deposit is approved and the instalments are stored.
  deposit_cents bigint check (deposit_cents > 0),
  balance_cents bigint check (balance_cents >= 0),
  materialised_at timestamptz,
  created_by uuid references staff_user (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  cancelled_at timestamptz,
  check (
    (kind = 'single' and installment_count = 1 and every is null)
    or (kind = 'installments' and installment_count between 2 and 24 and every is not null)
  ),
  check ((materialised_at is null) = (deposit_cents is null) and (deposit_cents is null) = (balance_cents is null)),
  check (balance_cents is null or deposit_cents + balance_cents = total_cents)
);

-- One row per charge of the balance. The scheduler (a later slice) claims a row with a lease (claimed_by +
-- claim_expires_at, taken with `update … where claim_expires_at is null or claim_expires_at < now()`), so any number
-- of processes charge it at most once; merchant_txn_id is sent to the gateway as ssl_merchant_txn_id, the same for
-- every try of the instalment, so an unknown outcome is looked up before any retry.
create table plan_installment (
  id bigserial primary key,
  plan_id bigint not null references payment_plan (id),
  n integer not null check (n between 1 and 24),
  due_on date not null,
  amount_cents bigint not null check (amount_cents > 0),
  status text not null default 'scheduled'
    check (status in ('scheduled', 'notified', 'paid', 'failed', 'cancelled', 'refunded')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz,
  last_failure text,
  merchant_txn_id text not null unique check (merchant_txn_id ~ '^[A-Za-z0-9]{16,40}$'),
  gateway_txn_id text,
  claimed_by text,
  claim_expires_at timestamptz,
  notified_at timestamptz,
  paid_at timestamptz,
  refunded_cents bigint not null default 0 check (refunded_cents >= 0 and refunded_cents <= amount_cents),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (plan_id, n),
  check ((claimed_by is null) = (claim_expires_at is null)),
  check (status <> 'paid' or (paid_at is not null and gateway_txn_id is not null))
);
-- What the scheduler looks for: open instalments by date.
create index plan_installment_open_idx on plan_installment (due_on) where status in ('scheduled', 'notified');

-- The card a plan charges (the next slice fills it): only the gateway's token, sealed at rest like staff TOTP secrets
-- (lib/secret-keys.ts: `v2.<key id>.<iv>.<body>.<tag>`), never the card number. A new card replaces the old one.
create table stored_card (
  id bigserial primary key,
  link_id text not null references link (id),
  token_sealed text not null,
  brand text,
  last4 text check (last4 ~ '^[0-9]{4}$'),
  exp_month smallint check (exp_month between 1 and 12),
  exp_year smallint check (exp_year between 2000 and 2100),
  -- The customer-initiated sale that stored it (the deposit, or an update-card sale).
  payment_attempt_id text references payment_attempt (id),
  created_at timestamptz not null default now(),
  replaced_at timestamptz
);
create unique index stored_card_current_idx on stored_card (link_id) where replaced_at is null;

-- The patient's card-on-file agreement (the next slice): which text, in which language, accepted when and from where.
create table card_agreement (
  id bigserial primary key,
  link_id text not null references link (id),
  stored_card_id bigint references stored_card (id),
  text_version text not null check (length(text_version) between 1 and 40),
  language text not null check (language in ('en', 'es')),
  accepted_at timestamptz not null default now(),
  ip text,
  user_agent text check (length(user_agent) <= 1000)
);
create index card_agreement_link_idx on card_agreement (link_id, accepted_at);
