-- Real-user performance (web-vitals) reported by the patient web app, one row per metric per page view.
-- No patient data: the route is a path without query string; no link id, no IP address.

create table web_vital (
  id bigint generated always as identity primary key,
  route text not null check (length(route) between 1 and 200),
  name text not null check (name in ('CLS', 'FCP', 'INP', 'LCP', 'TTFB')),
  value double precision not null check (value >= 0),
  rating text check (rating in ('good', 'needs-improvement', 'poor')),
  navigation_type text,
  created_at timestamptz not null default now()
);
create index web_vital_route_idx on web_vital (route, name, created_at desc);
