-- Thread owners: the tenant and user a conversation thread belongs to, recorded when the thread is
-- first used and never changed (src/threads/, docs/security.md "Threads belong to their owner").
-- One table both halves of the plugin use: the checkpointer records and checks the owner in the
-- statements of its puts and reads, and the memory nodes in the statement the load node already
-- runs — so the check holds under any checkpointer (MemorySaver, the LangGraph dev server's or
-- Platform's), whose own tables the plugin never sees.
--
-- A thread's owner is the pair (tenant_id, user_id) of the call that first used it; a thread first
-- used without a scope (plain checkpointer use, LangGraph's conformance suite) is recorded with
-- both NULL: it is nobody's, and only unscoped calls may use it. A call is allowed exactly when its
-- pair equals the recorded one (NULL equal to NULL): a scoped call never adopts an unscoped
-- thread, and an unscoped call never reads a scoped one.
--
-- Not under row-level security, like the checkpointer's tables (migration 0006): the
-- checkpointer's statements carry no transaction scope, and a policy that hid other owners' rows
-- from them would make a foreign thread look unowned. Rows hold ids only, no content; every
-- statement that reads one compares the owner itself.

CREATE TABLE thread_owners (
  thread_id text COLLATE "C" PRIMARY KEY,
  tenant_id text,
  user_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A user's threads (deleting a user's data).
CREATE INDEX thread_owners_owner_idx ON thread_owners (tenant_id, user_id);

-- Threads stored before this migration: the owner their thread row recorded (NULLs: nobody's).
INSERT INTO thread_owners (thread_id, tenant_id, user_id, created_at)
SELECT thread_id, tenant_id, user_id, created_at FROM threads;

-- Any thread row inserted records its owner if none is recorded yet (the checkpointer's first put
-- has already recorded it; this covers rows written by other means), so no thread is without one.
CREATE FUNCTION threads_record_owner() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO thread_owners (thread_id, tenant_id, user_id) VALUES (NEW.thread_id, NEW.tenant_id, NEW.user_id) ON CONFLICT (thread_id) DO NOTHING;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER threads_record_owner AFTER INSERT ON threads FOR EACH ROW EXECUTE FUNCTION threads_record_owner();
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION threads_record_owner() SET search_path = %I, public, pg_temp', current_schema());
END
$$;

-- SQLSTATE LGM01 (src/db/sqlstate.ts): the thread belongs to another scope. The driver maps it to
-- the typed error THREAD_SCOPE_MISMATCH.
CREATE FUNCTION thread_owners_immutable() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'the owner of a thread is recorded once and never changes' USING ERRCODE = 'LGM01';
END
$fn$;
CREATE TRIGGER thread_owners_immutable BEFORE UPDATE ON thread_owners FOR EACH ROW
  WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.thread_id IS DISTINCT FROM NEW.thread_id)
  EXECUTE FUNCTION thread_owners_immutable();

-- Record the thread's owner if it has none yet, and say whether (p_tenant, p_user) is its owner.
-- The common case, a thread already recorded, is one index lookup. Two first uses racing: the
-- insert of the loser waits for the winner's commit and inserts nothing; the select after it is a
-- new statement (a volatile function takes a snapshot per statement) and sees the winner's row.
CREATE FUNCTION memory_thread_claim(p_thread text, p_tenant text, p_user text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  o_tenant text;
  o_user text;
BEGIN
  SELECT o.tenant_id, o.user_id INTO o_tenant, o_user FROM thread_owners o WHERE o.thread_id = p_thread;
  IF NOT FOUND THEN
    INSERT INTO thread_owners (thread_id, tenant_id, user_id) VALUES (p_thread, p_tenant, p_user) ON CONFLICT (thread_id) DO NOTHING;
    IF FOUND THEN
      RETURN true;
    END IF;
    SELECT o.tenant_id, o.user_id INTO o_tenant, o_user FROM thread_owners o WHERE o.thread_id = p_thread;
    IF NOT FOUND THEN
      -- Recorded and deleted again in between: refuse this once rather than guess.
      RETURN false;
    END IF;
  END IF;
  RETURN o_tenant IS NOT DISTINCT FROM p_tenant AND o_user IS NOT DISTINCT FROM p_user;
END
$fn$;

-- The load-memory node's statements (migration 0007) for a turn of a thread: the thread's owner is
-- checked first, in the same round trip (recorded by memory_thread_claim on the thread's first
-- turn); a thread of another scope raises LGM01 before anything is read. The rest is
-- memory_load_head / memory_load_context unchanged, in one statement of this function, so their
-- reads still share one snapshot. Volatile because the first turn of a thread records its owner.
-- The owner row is read inline rather than through one more function: on the turn answered from
-- the candidate cache that call was half of what the check costs (~15 µs of ~30 µs on PGlite).
CREATE FUNCTION memory_thread_load_head(
  p_thread_id text, p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_query text, p_cached_version bigint
) RETURNS TABLE (opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  o_tenant text;
  o_user text;
BEGIN
  IF p_thread_id IS NOT NULL THEN
    SELECT o.tenant_id, o.user_id INTO o_tenant, o_user FROM thread_owners o WHERE o.thread_id = p_thread_id;
    IF NOT FOUND THEN
      IF NOT memory_thread_claim(p_thread_id, p_tenant, p_user) THEN
        RAISE EXCEPTION 'thread belongs to another tenant or user' USING ERRCODE = 'LGM01';
      END IF;
    ELSIF o_tenant IS DISTINCT FROM p_tenant OR o_user IS DISTINCT FROM p_user THEN
      RAISE EXCEPTION 'thread belongs to another tenant or user' USING ERRCODE = 'LGM01';
    END IF;
  END IF;
  RETURN QUERY SELECT * FROM memory_load_head(p_tenant, p_user, p_profile, p_rules, p_task_type, p_rule_limit, p_search, p_query, p_cached_version);
END
$fn$;

CREATE FUNCTION memory_thread_load_context(
  p_thread_id text, p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
  p_now timestamptz, p_query text, p_embedding real[], p_decay_days double precision,
  p_min_vsim double precision, p_vector_limit integer, p_vector_weight double precision,
  p_recency_weight double precision, p_archived_min_vsim double precision,
  p_standing_kinds text[], p_standing_limit integer
) RETURNS TABLE (
  opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[],
  id uuid, scope text, tenant_id text, user_id text, kind text, text text, context text,
  source_thread_id text, source_message_id text, source_run_id text, origin text, confidence real,
  created_at timestamptz, updated_at timestamptz, last_used_at timestamptz, access_count integer,
  expires_at timestamptz, superseded_by uuid, archived_at timestamptz, metadata jsonb,
  doc_len integer, vsim double precision, recency double precision, matched text,
  scope_count integer, scope_avgdl double precision
) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  o_tenant text;
  o_user text;
BEGIN
  IF p_thread_id IS NOT NULL THEN
    SELECT o.tenant_id, o.user_id INTO o_tenant, o_user FROM thread_owners o WHERE o.thread_id = p_thread_id;
    IF NOT FOUND THEN
      IF NOT memory_thread_claim(p_thread_id, p_tenant, p_user) THEN
        RAISE EXCEPTION 'thread belongs to another tenant or user' USING ERRCODE = 'LGM01';
      END IF;
    ELSIF o_tenant IS DISTINCT FROM p_tenant OR o_user IS DISTINCT FROM p_user THEN
      RAISE EXCEPTION 'thread belongs to another tenant or user' USING ERRCODE = 'LGM01';
    END IF;
  END IF;
  RETURN QUERY SELECT * FROM memory_load_context(p_tenant, p_user, p_profile, p_rules, p_task_type, p_rule_limit, p_search,
    p_include_tenant, p_include_global, p_kinds, p_now, p_query, p_embedding, p_decay_days, p_min_vsim, p_vector_limit,
    p_vector_weight, p_recency_weight, p_archived_min_vsim, p_standing_kinds, p_standing_limit);
END
$fn$;

-- Keys that seal state the plugin's nodes write into graph state, so a value a client planted in
-- that state (through a graph's input, or the LangGraph API's update-state) is recognised as not
-- ours and dropped: the rolling summary (src/state/summary-seal.ts). 32 bytes from two
-- gen_random_uuid() values (pg_strong_random, 244 random bits), made once per database.
CREATE TABLE memory_seal_keys (
  purpose text PRIMARY KEY,
  key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO memory_seal_keys (purpose, key)
VALUES ('summary', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));
