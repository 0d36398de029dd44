-- Profiles, procedural rules, memory settings (opt-out), delete-all confirmations, the deletion
-- audit, retention runs, and the memory lifecycle column the retention sweep sets
-- (docs/controls.md, docs/operations.md). Every per-user table leads with (tenant_id, user_id).
-- Id CHECKs use coalesce(…, '') <> '': a bare `col <> ''` is NULL for a NULL column, and a CHECK
-- that evaluates to NULL passes.

-- One profile document per tenant + user, validated in TypeScript by the app's zod schema.
CREATE TABLE profiles (
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  document jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(document) = 'object'),
  -- Per top-level field, who wrote it last: { kind, threadId, messageId, runId, at }.
  sources jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(sources) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);

-- Every change of a top-level profile field: old and new value (SQL NULL = absent) and who wrote it.
CREATE TABLE profile_history (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  field text NOT NULL CHECK (field <> ''),
  old_value jsonb,
  new_value jsonb,
  source_kind text NOT NULL CHECK (source_kind IN ('user_edit', 'extraction', 'tool', 'import', 'api')),
  source_thread_id text,
  source_message_id text,
  source_run_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX profile_history_scope_idx ON profile_history (tenant_id, user_id, created_at);

-- Procedural memory: instructions for how to behave, reviewed before they reach a prompt.
--   global  every tenant and user               tenant_id, user_id, task_type NULL
--   tenant  every user of one tenant            tenant_id set
--   task    one task type (of one tenant, or of every tenant when tenant_id is NULL)
--   user    one user (optionally for one task type only)
CREATE TABLE procedural_rules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scope text NOT NULL CHECK (scope IN ('global', 'tenant', 'task', 'user')),
  tenant_id text,
  user_id text,
  task_type text,
  text text NOT NULL CHECK (length(btrim(text)) > 0 AND length(text) <= 2000),
  -- What "the same rule" means for de-duplication: case and whitespace folded.
  text_key text GENERATED ALWAYS AS (lower(regexp_replace(btrim(text), '\s+', ' ', 'g'))) STORED,
  source text NOT NULL CHECK (source IN ('manual', 'feedback', 'learned')),
  priority integer NOT NULL DEFAULT 0 CHECK (priority BETWEEN -1000 AND 1000),
  active boolean NOT NULL DEFAULT true,
  review_state text NOT NULL DEFAULT 'proposed' CHECK (review_state IN ('proposed', 'approved', 'revoked')),
  origin_kind text CHECK (origin_kind IN ('user_edit', 'extraction', 'tool', 'import', 'api')),
  source_thread_id text,
  source_message_id text,
  source_run_id text,
  reviewed_at timestamptz,
  reviewed_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  CONSTRAINT procedural_rules_scope_columns CHECK (
    (scope = 'global' AND tenant_id IS NULL AND user_id IS NULL AND task_type IS NULL)
    OR (scope = 'tenant' AND coalesce(tenant_id, '') <> '' AND user_id IS NULL AND task_type IS NULL)
    OR (scope = 'task' AND (tenant_id IS NULL OR tenant_id <> '') AND user_id IS NULL AND coalesce(task_type, '') <> '')
    OR (scope = 'user' AND coalesce(tenant_id, '') <> '' AND coalesce(user_id, '') <> '' AND (task_type IS NULL OR task_type <> ''))
  )
);
CREATE INDEX procedural_rules_scope_idx ON procedural_rules (tenant_id, user_id, review_state);
CREATE INDEX procedural_rules_shared_idx ON procedural_rules (scope, review_state) WHERE user_id IS NULL;
-- At most one open (proposed or approved) copy of a rule per scope: a burst of identical
-- proposals from concurrent extraction jobs conflicts here instead of duplicating.
CREATE UNIQUE INDEX procedural_rules_open_text ON procedural_rules
  (scope, coalesce(tenant_id, ''), coalesce(user_id, ''), coalesce(task_type, ''), text_key)
  WHERE review_state IN ('proposed', 'approved');

-- A user's memory settings. opted_out: nothing is read or written for the user until opted back in.
-- delete_all_requested_*: the user asked (in conversation) to forget everything; the app shows the
-- confirmation, and the confirmed delete-all clears it.
CREATE TABLE memory_settings (
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  opted_out boolean NOT NULL DEFAULT false,
  opted_out_at timestamptz,
  delete_all_requested_at timestamptz,
  delete_all_request_source jsonb,
  -- When the retention sweep last purged the user's data (after an opt-out).
  purged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX memory_settings_opted_out_idx ON memory_settings (opted_out_at) WHERE opted_out;

-- Pending "delete everything" confirmations. Only a hash of the token is stored; a token is
-- bound to one tenant + user and purpose, expires, and is consumed by its first use.
CREATE TABLE memory_confirmations (
  token_hash text PRIMARY KEY,
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  purpose text NOT NULL CHECK (purpose IN ('delete_all')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX memory_confirmations_scope_idx ON memory_confirmations (tenant_id, user_id);
CREATE INDEX memory_confirmations_expires_idx ON memory_confirmations (expires_at);

-- That something was deleted — never what: the kind of item, how many, which code path, who asked.
-- One operation (a delete-all, a sweep batch) shares an operation_id across its rows.
CREATE TABLE memory_deletion_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operation_id uuid NOT NULL,
  tenant_id text,
  user_id text,
  item_kind text NOT NULL CHECK (item_kind IN ('memory', 'profile', 'profile_history', 'rule', 'job', 'thread', 'confirmation')),
  item_count integer NOT NULL CHECK (item_count > 0),
  via text NOT NULL CHECK (via <> '' AND length(via) <= 100),
  actor text CHECK (length(actor) <= 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_deletion_audit_scope_idx ON memory_deletion_audit (tenant_id, user_id, created_at);

-- One row per retention sweep: when (by the sweep's clock), what it did, and when the next is due.
CREATE TABLE retention_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  next_due_at timestamptz,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  summary jsonb NOT NULL DEFAULT '{}'::jsonb,
  error text CHECK (length(error) <= 300)
);
CREATE INDEX retention_runs_started_idx ON retention_runs (started_at);

-- Memory lifecycle. Two states the retention sweep (and the controls) set, both kept, listed and
-- exported, neither ever deleting anything:
-- * archived_at: set aside for not being used (extracted episodes and inferred memories idle for
--   `retention.unusedDays`). Archived memories are still search candidates, but only pass a higher
--   relevance floor (`retrieval.archivedRelevanceFloor`), so a strongly relevant one still comes
--   back; being used again (`markUsed`) clears the mark.
-- * deactivated_at: switched off (an inference whose confidence decayed below the minimum, or
--   `update({ deactivated: true })`): never retrieved until reactivated.
ALTER TABLE memories ADD COLUMN deactivated_at timestamptz;
ALTER TABLE memories ADD COLUMN archived_at timestamptz;

-- The sweep's candidate scans (cross-tenant, so they cannot lead with the scope).
CREATE INDEX memories_episode_created_idx ON memories (created_at) WHERE kind = 'episode';
CREATE INDEX memories_unused_idx ON memories ((coalesce(last_used_at, created_at)))
  WHERE archived_at IS NULL AND deactivated_at IS NULL AND superseded_by IS NULL;
CREATE INDEX memories_inferred_idx ON memories (created_at) WHERE origin = 'inferred' AND deactivated_at IS NULL;

