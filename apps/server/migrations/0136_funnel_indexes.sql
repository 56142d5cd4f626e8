-- The funnel (issue 13) asks, per link, for its first send, its first opening and its last patient activity. With
-- only audit_event (link_id, at) each of those reads every audit row of the link (~30 to 100); these partial
-- indexes hold just the rows asked for, so each is one index probe (10,000 links: docs/performance.md).
create index if not exists audit_event_link_sent_idx on audit_event (link_id, at)
  where action in ('link.sent', 'link.resent');
create index if not exists audit_event_link_opened_idx on audit_event (link_id, at)
  where action = 'patient.phone_lookup';
create index if not exists audit_event_link_activity_idx on audit_event (link_id, at)
  where actor_type = 'link';
