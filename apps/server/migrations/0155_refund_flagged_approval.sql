-- Issue 15: a second approval flagged by reconciliation (payment_attempt.status = 'duplicate', needs_attention) is
-- voided or returned in one admin action. Its reversal is a refund row tied to the attempt: it gives back that extra
-- charge, never part of the link's recorded payment, so it does not count against payment.refunded_cents.
alter table refund add column payment_attempt_id text references payment_attempt (id);
-- The payment's own void stays one per payment; a flagged charge is reversed at most once (a failed try frees it).
drop index if exists refund_one_void_per_payment;
create unique index if not exists refund_one_void_per_payment on refund (payment_id)
  where kind = 'void' and status <> 'failed' and payment_attempt_id is null;
create unique index if not exists refund_one_per_flagged_attempt on refund (payment_attempt_id)
  where payment_attempt_id is not null and status <> 'failed';
