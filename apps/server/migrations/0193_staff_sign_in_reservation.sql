-- Issue 26, finding 1 (docs/decisions/0193). A sign-in attempt is written before the password or code is checked: the
-- row is 'pending' while scrypt and the code check run, becomes a failure ('password', 'code', 'enrol') when they fail
-- and is deleted when they succeed. The delay counts every row, so concurrent guesses see each other.
alter table staff_sign_in_failure
  add column kind text not null default 'password' check (kind in ('pending', 'password', 'code', 'enrol'));

-- Set when an account reaches 10 wrong second-factor codes in 15 minutes: authenticator codes are refused until a
-- recovery code signs in or an admin resets two-factor. The owner is e-mailed when it is set.
alter table staff_user add column totp_locked_at timestamptz;
