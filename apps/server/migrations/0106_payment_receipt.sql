-- Issue 10 item 7: what the receipt of an approved payment was sent by, so the confirmation (and a repeated one)
-- says what was actually sent. channel: 'email' | 'sms' | 'none'; receipt_to is masked (the outbox has the address).
alter table payment add column if not exists receipt_channel text;
alter table payment add column if not exists receipt_to text;
