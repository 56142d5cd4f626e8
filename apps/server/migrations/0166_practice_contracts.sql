-- Issue 16, item 3: the practice's contract per language, uploaded in the console (docs/decisions/0168). The bytes live
-- in document storage (content-addressed, contracts/<sha256>.pdf); the row says which file is in effect and who put it.
-- No row = the env's CONTRACT_PDF_PATH(_ES), else the bundled sample.
create table practice_contract (
  lang text primary key check (lang in ('en', 'es')),
  storage_key text not null,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  file_name text not null,
  size_bytes integer not null check (size_bytes > 0),
  page_count integer not null check (page_count > 0),
  uploaded_by uuid references staff_user (id),
  uploaded_at timestamptz not null default now()
);

-- The contract each language's reader of this submission is shown, fixed when the submission is prepared, so a later
-- upload changes neither an open nor a signed contract: { "en": { key, sha256, fallback, source }, "es": { ... } }.
-- Null (submissions prepared before this migration): the contract in effect when read, as before.
alter table submission add column if not exists contract_snapshot jsonb;
