-- Issue 28 (docs/decisions/0214): the card-on-file agreement's exact words as the patient's page showed them, and
-- their SHA-256, kept with each acceptance, so the receipt and the dispute evidence quote what was accepted rather
-- than a rebuild from today's facts. Rows accepted before this migration have none; they are rebuilt as before.
alter table card_agreement
  add column text text check (length(text) <= 10000),
  add column text_sha256 text check (text_sha256 ~ '^[0-9a-f]{64}$');
