-- Built-in signing service (issue 5): one submission per document step, the ID files uploaded to it, and the signed
-- PDF's storage key. The token in the step's documentUrl is a bearer capability: only its SHA-256 is kept here.

create table submission (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  link_id text not null references link (id),
  -- A step list rebuilt before anything was signed drops its old steps; a signed record outlives its step.
  link_step_id integer unique references link_step (id) on delete set null,
  kind text not null check (kind in ('invoice', 'contract', 'patient_id', 'payor_id', 'payment_authorization')),
  provider text not null default 'builtin',
  status text not null default 'pending' check (status in ('pending', 'completed')),
  signer_name text check (signer_name is null or length(signer_name) between 1 and 200),
  signature_method text check (signature_method in ('draw', 'type', 'upload')),
  completed_at timestamptz,
  ip text,
  user_agent text,
  original_sha256 text check (original_sha256 is null or original_sha256 ~ '^[0-9a-f]{64}$'),
  signed_sha256 text check (signed_sha256 is null or signed_sha256 ~ '^[0-9a-f]{64}$'),
  signed_storage_key text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (
    status <> 'completed'
    or (completed_at is not null and signer_name is not null and signature_method is not null
        and original_sha256 is not null and signed_storage_key is not null)
  )
);
create index submission_link_idx on submission (link_id, created_at);

-- ID images and PDFs. content_sha256 is the hash of the bytes as uploaded (before any HEIC conversion): the same file
-- twice on one link is refused.
create table submission_file (
  id uuid primary key default gen_random_uuid(),
  submission_id uuid not null references submission (id) on delete cascade,
  link_id text not null references link (id),
  side text not null check (side in ('front', 'back')),
  original_name text not null default '',
  original_mime text not null,
  content_sha256 text not null check (content_sha256 ~ '^[0-9a-f]{64}$'),
  mime text not null check (mime in ('image/jpeg', 'image/png', 'application/pdf')),
  size_bytes integer not null check (size_bytes > 0),
  storage_key text not null,
  created_at timestamptz not null default now(),
  unique (submission_id, side),
  unique (link_id, content_sha256)
);
