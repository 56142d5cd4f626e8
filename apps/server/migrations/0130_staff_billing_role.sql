-- Practice console (issue 13): a third staff role, billing (payments, exports, refunds; no link creation).
alter table staff_user drop constraint if exists staff_user_role_check;
alter table staff_user add constraint staff_user_role_check check (role in ('admin', 'coordinator', 'billing'));
