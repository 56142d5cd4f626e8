-- Issue 25 (docs/decisions/0192): the patient session (one browser's sign-in) a payment attempt's token was handed to.
-- That session's submits share the token; another session asking while the attempt is live is told that a payment
-- for the link is in progress (409 payment_in_progress) instead of sharing a single-use token only one can use.
-- Null for attempts made before this column (they are shared as before).
alter table payment_attempt add column session_id uuid references patient_session (id);
