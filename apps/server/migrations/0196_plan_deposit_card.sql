-- Issue 28 (docs/decisions/0207): what the deposit stores for the plan's later charges. Converge's merchant-managed
-- card tokens page asks every merchant-initiated sale for the first, customer-initiated sale's approval code and
-- network data (ssl_ps2000_data), so they are kept with the card they stored.
alter table stored_card
  add column approval_code text,
  add column ps2000_data text check (length(ps2000_data) <= 200);

-- An approved deposit whose verified transaction carried no token: the approval is recorded as always, the plan has
-- no card to charge and says so until the patient enters one.
alter table payment_plan add column card_needed_at timestamptz;
