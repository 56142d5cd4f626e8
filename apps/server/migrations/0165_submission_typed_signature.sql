-- Issue 16, item 10g (WCAG 3.3.7): a typed signature is kept with its submission so the signer's next document can
-- offer it instead of asking for it again.
alter table submission add column if not exists typed_signature text;
