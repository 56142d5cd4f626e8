-- Issue 28 (docs/decisions/0210): the practice's actions on a plan. A refund of a paid instalment is a refund row
-- like a deposit's (same reservation, void/return and receipt rules), tied to the instalment it gives back; it does
-- not count against the deposit's payment, and a sale is still voided at most once.
alter table refund add column plan_installment_id bigint references plan_installment (id);
drop index if exists refund_one_void_per_payment;
create unique index if not exists refund_one_void_per_payment on refund (payment_id)
  where kind = 'void' and status <> 'failed' and payment_attempt_id is null and plan_installment_id is null;
create unique index if not exists refund_one_void_per_installment on refund (plan_installment_id)
  where kind = 'void' and status <> 'failed' and plan_installment_id is not null;

-- When the plan was paused (null while it runs): resume asks fresh notices for what fell due in between.
alter table payment_plan add column paused_at timestamptz;
