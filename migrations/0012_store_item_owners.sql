-- BaseStore items a user's store wrote are that user's (issue 18, "familiar names"): the user's
-- delete-all and opt-out purge remove them, their export carries them, and while the user is
-- opted out they are not read. `LangGraphStore.forScope` / `forConfig` record the owner; items
-- written by a store bound to no user stay nobody's (NULL), as before.
ALTER TABLE store_items ADD COLUMN user_id text;
CREATE INDEX store_items_owner_idx ON store_items (tenant_id, user_id) WHERE user_id IS NOT NULL;

-- Their deletions are audited like every other kind.
ALTER TABLE memory_deletion_audit DROP CONSTRAINT memory_deletion_audit_item_kind_check;
ALTER TABLE memory_deletion_audit ADD CONSTRAINT memory_deletion_audit_item_kind_check
  CHECK (item_kind IN ('memory', 'profile', 'profile_history', 'rule', 'job', 'thread', 'confirmation', 'store_item'));
