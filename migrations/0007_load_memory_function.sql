-- The load-memory node's reads in one round trip (src/retrieval/load-context-query.ts): whether the
-- user opted out, their profile document, the approved rules for the task, and the hybrid search
-- candidates, from one PL/pgSQL call. A function so that its plans are cached per session: PGlite
-- re-plans every plain statement, and planning these reads cost more than running them on a
-- user's few rows. docs/benchmarks.md ("Memory overhead") has the measurements.

-- Approved, active rules that apply to one user for one task type (NULL = none): global rules,
-- task rules of every tenant and of the user's tenant, the tenant's rules, and the user's own
-- (unlimited, or limited to this task type); highest priority first. The one definition of "the
-- rules a prompt gets", used by RuleStore.activeFor (src/procedural/rule-queries.ts) and below.
-- The caller applies the opt-out gate.
CREATE FUNCTION memory_active_rules(p_tenant text, p_user text, p_task_type text, p_limit integer)
RETURNS TABLE (id uuid, text text, priority integer, scope text, task_type text, created_at timestamptz)
LANGUAGE sql STABLE AS $fn$
  SELECT r.id, r.text, r.priority, r.scope, r.task_type, r.created_at FROM procedural_rules r
  WHERE r.review_state = 'approved' AND r.active
    AND (
      (r.tenant_id IS NULL AND r.user_id IS NULL AND (r.scope = 'global' OR (r.scope = 'task' AND r.task_type = p_task_type)))
      OR (r.tenant_id = p_tenant AND r.user_id IS NULL AND (r.scope = 'tenant' OR (r.scope = 'task' AND r.task_type = p_task_type)))
      OR (r.tenant_id = p_tenant AND r.user_id = p_user AND (r.task_type IS NULL OR r.task_type = p_task_type))
    )
  ORDER BY r.priority DESC, r.created_at, r.id
  LIMIT p_limit
$fn$;

-- Content versions of each user's memories, for the load node's in-process candidate cache
-- (src/retrieval/candidate-cache.ts). Every statement that inserts, deletes or changes a user-scope
-- memory gives its user a new version from one sequence (values never repeat, so a version read
-- once always names the same content); usage marks (last_used_at, access_count and nothing else)
-- do not, because the cache applies its own process's marks itself. TRUNCATE renews every version.
-- The counter row is locked by the writing statement until commit, so versions follow commit
-- order; statements touching several users take their rows in (tenant, user) order.
CREATE SEQUENCE memory_versions_seq;
CREATE TABLE memory_versions (
  tenant_id text NOT NULL,
  user_id text NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (tenant_id, user_id)
);
ALTER TABLE memory_versions ENABLE ROW LEVEL SECURITY;
-- Read by the user's own statements; deleted with the user's data (src/controls/user-data.ts);
-- written only by the trigger below (SECURITY DEFINER).
CREATE POLICY memory_versions_select ON memory_versions FOR SELECT USING (memory_rls_is_user(tenant_id, user_id));
CREATE POLICY memory_versions_delete ON memory_versions FOR DELETE USING (memory_rls_is_user(tenant_id, user_id));

-- The users of changed rows: every owner of an inserted or deleted row; for an update, the owners
-- (before and after) of rows that changed in anything but the usage columns (every other column
-- counts, including any added later).
CREATE FUNCTION memory_versions_bump() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER AS $fn$
DECLARE
  owners jsonb;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE memory_versions SET version = nextval('memory_versions_seq');
    RETURN NULL;
  END IF;
  -- Each operation reads only the transition tables it has (the others do not exist).
  IF TG_OP = 'INSERT' THEN
    owners := (SELECT jsonb_agg(DISTINCT jsonb_build_array(n.tenant_id, n.user_id)) FROM memory_versions_new n WHERE n.scope = 'user');
  ELSIF TG_OP = 'DELETE' THEN
    owners := (SELECT jsonb_agg(DISTINCT jsonb_build_array(o.tenant_id, o.user_id)) FROM memory_versions_old o WHERE o.scope = 'user');
  ELSE
    owners := (
      SELECT jsonb_agg(DISTINCT jsonb_build_array(w.tenant_id, w.user_id))
      FROM memory_versions_old o JOIN memory_versions_new n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.tenant_id, o.user_id, o.scope), (n.tenant_id, n.user_id, n.scope)) AS w(tenant_id, user_id, scope)
      WHERE w.scope = 'user'
        -- The new row with the old usage values put back, compared whole with the old one (a jsonb
        -- diff of both rows converted every vector: 12 ms more per batch of 30 usage marks).
        AND jsonb_populate_record(n, jsonb_build_object('last_used_at', o.last_used_at, 'access_count', o.access_count)) IS DISTINCT FROM o);
  END IF;
  IF owners IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO memory_versions AS v (tenant_id, user_id, version)
  SELECT c.tenant_id, c.user_id, nextval('memory_versions_seq')
  FROM (SELECT e->>0 AS tenant_id, e->>1 AS user_id FROM jsonb_array_elements(owners) e ORDER BY 1, 2) c
  ON CONFLICT (tenant_id, user_id) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER memories_versions_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS memory_versions_new FOR EACH STATEMENT EXECUTE FUNCTION memory_versions_bump();
CREATE TRIGGER memories_versions_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS memory_versions_old NEW TABLE AS memory_versions_new FOR EACH STATEMENT EXECUTE FUNCTION memory_versions_bump();
CREATE TRIGGER memories_versions_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS memory_versions_old FOR EACH STATEMENT EXECUTE FUNCTION memory_versions_bump();
CREATE TRIGGER memories_versions_truncate AFTER TRUNCATE ON memories
  FOR EACH STATEMENT EXECUTE FUNCTION memory_versions_bump();
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION memory_versions_bump() SET search_path = %I, public, pg_temp', current_schema());
END
$$;

-- The user's context, one row: `opted_out`, `profile` (the document, or NULL: none or not asked
-- for), `rules` (a JSON array of {id, text, priority, scope, taskType}, highest priority first, or
-- NULL when not asked for), and with p_search `memories_version`, the user's memories version
-- (memory_versions; NULL: none recorded). A caller holding the user's memories in a cache passes
-- the version it holds as p_cached_version: when it is still current, `query_lexemes` carries the
-- query's lexemes (the words a search would match, as Postgres stems them) and the caller ranks
-- its cached rows (src/retrieval/candidate-cache.ts) instead of searching; NULL otherwise. An
-- opted-out user gets `opted_out` only, nothing else read. The function scopes its reads to
-- p_tenant / p_user itself unless the caller's transaction has a scope. Called alone for a turn
-- answered from the cache (5 columns, 9 arguments: ~0.25 ms less than memory_load_context on
-- PGlite), and by memory_load_context.
CREATE FUNCTION memory_load_head(
  p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_query text, p_cached_version bigint
) RETURNS TABLE (opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[])
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
  -- The row-level security scope for the reads below when the caller set none (transaction-local,
  -- as applyScope in src/db/scope-settings.ts sets it): called on its own, the statement is its own
  -- transaction and needs no BEGIN / set_config / COMMIT round trips around it. A scope the caller
  -- did set is kept: called in a transaction scoped to another user, the policies hide this user's rows.
  IF coalesce(current_setting('langgraph_memory.tenant_id', true), '') = '' THEN
    PERFORM set_config('langgraph_memory.tenant_id', p_tenant, true), set_config('langgraph_memory.user_id', coalesce(p_user, ''), true);
  END IF;
  opted_out := coalesce((SELECT s.opted_out FROM memory_settings s WHERE s.tenant_id = p_tenant AND s.user_id = p_user), false);
  IF NOT opted_out THEN
    IF p_profile THEN
      profile := (SELECT p.document FROM profiles p WHERE p.tenant_id = p_tenant AND p.user_id = p_user);
    END IF;
    IF p_rules THEN
      rules := (SELECT coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'text', r.text, 'priority', r.priority, 'scope', r.scope, 'taskType', r.task_type)
                                          ORDER BY r.priority DESC, r.created_at, r.id), '[]'::jsonb)
                FROM memory_active_rules(p_tenant, p_user, p_task_type, p_rule_limit) r);
    END IF;
    IF p_search AND p_user IS NOT NULL THEN
      memories_version := (SELECT v.version FROM memory_versions v WHERE v.tenant_id = p_tenant AND v.user_id = p_user);
      IF p_cached_version IS NOT NULL AND memories_version = p_cached_version THEN
        query_lexemes := tsvector_to_array(to_tsvector('english', p_query));
      END IF;
    END IF;
  END IF;
  RETURN NEXT;
END
$fn$;

-- One row first, the user's context (memory_load_head's columns). Then, unless the user opted out
-- or p_search is false, the rows of memory_search_candidates (defined below) with the same
-- arguments; on those the context columns are NULL. All reads see one snapshot (a STABLE function
-- runs in its caller's), so `memories_version` names exactly the memories searched.
CREATE FUNCTION memory_load_context(
  p_tenant text, p_user text,
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
) LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
  SELECT h.opted_out, h.profile, h.rules, h.memories_version INTO opted_out, profile, rules, memories_version
  FROM memory_load_head(p_tenant, p_user, p_profile, p_rules, p_task_type, p_rule_limit, p_search, p_query, NULL) h;
  RETURN NEXT;
  IF opted_out OR NOT p_search THEN
    RETURN;
  END IF;
  RETURN QUERY
  SELECT NULL::boolean, NULL::jsonb, NULL::jsonb, NULL::bigint, NULL::text[], c.*
  FROM memory_search_candidates(p_tenant, p_user, p_include_tenant, p_include_global, p_kinds, p_now, p_query,
                                p_embedding, p_decay_days, p_min_vsim, p_vector_limit, p_vector_weight, p_recency_weight,
                                p_archived_min_vsim, p_standing_kinds, p_standing_limit) c;
END
$fn$;

-- Hybrid search candidates of a scope, with their rows (src/store/memory-queries.ts; ranked in
-- TypeScript by src/store/hybrid-scoring.ts). A function so that its plan is cached per session:
-- parsing and planning this statement cost more than running it on a user's hundred rows. The
-- UNION ALL branches are gated by boolean parameters, so a user-only search touches only the
-- user's index range. Lifecycle (migration 0005): deactivated memories are never candidates;
-- archived ones are, flagged by `archived_at`, and a row without a query word needs
-- p_archived_min_vsim instead of p_min_vsim; expired and superseded ones never are.
-- * standing memories: the p_standing_limit most recently used (or created) rows of
--   p_standing_kinds (durable facts and preferences) are returned whatever their relevance, with
--   their similarity, so the load node can inject them below the floor ("drives a Golf" for
--   "which engine oil?"). Only those few rows get a vector similarity computed, not all of the
--   scope's (computing it for every row cost ~4 ms at 200 memories on the response path);
-- * each row's match with the query words is computed once;
-- * a row without a query word gets its vector similarity (and recency) only when such a row can
--   pass the floor at all (p_min_vsim <= 1; the store passes infinity when only an exact copy of
--   the query vector could, see MemoryStore.candidateParams): converting each stored real[] to a
--   vector was a third of the statement's time at 200 memories (docs/benchmarks.md, "Memory
--   overhead"). An archived row without a query word is judged against p_archived_min_vsim.
CREATE FUNCTION memory_search_candidates(
  p_tenant text, p_user text, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
  p_now timestamptz, p_query text, p_embedding real[], p_decay_days double precision,
  p_min_vsim double precision, p_vector_limit integer, p_vector_weight double precision,
  p_recency_weight double precision, p_archived_min_vsim double precision,
  p_standing_kinds text[], p_standing_limit integer
) RETURNS TABLE (
  id uuid, scope text, tenant_id text, user_id text, kind text, text text, context text,
  source_thread_id text, source_message_id text, source_run_id text, origin text, confidence real,
  created_at timestamptz, updated_at timestamptz, last_used_at timestamptz, access_count integer,
  expires_at timestamptz, superseded_by uuid, archived_at timestamptz, metadata jsonb,
  doc_len integer, vsim double precision, recency double precision, matched text,
  scope_count integer, scope_avgdl double precision
) LANGUAGE plpgsql STABLE
-- One plan for every call (parameters as parameters): Postgres otherwise keeps re-planning this
-- statement per call (custom plans look cheaper to it than the generic one), which cost more than
-- running it on a user's few hundred rows. The generic plan is the same index scan of the scope.
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  -- The query's vector, lexemes and any-word tsquery, computed once and read by the rows below as
  -- uncorrelated subqueries (init plans: values), not joined: a join rescanned q's one row, vector
  -- included, for every memory row (a fifth of the statement at 200 memories).
  WITH q AS MATERIALIZED (
    SELECT memory_query_vector(p_embedding) AS vec,
           tsvector_to_array(to_tsvector('english', p_query)) AS lexemes,
           nullif(replace(plainto_tsquery('english', p_query)::text, ' & ', ' | '), '')::tsquery AS any_query
  ),
  rows_in_scope AS (
    SELECT m.* FROM memories m
    WHERE p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
      AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    UNION ALL
    SELECT m.* FROM memories m
    WHERE p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
      AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    UNION ALL
    SELECT m.* FROM memories m
    WHERE p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
      AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
  ),
  -- The standing memories: the user's newest p_standing_limit rows of a standing kind, not
  -- archived (an empty scan when none are asked for: the first condition is a one-time filter).
  standing_ids AS MATERIALIZED (
    SELECT m.id FROM memories m
    WHERE p_standing_limit > 0 AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
      AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
      AND m.archived_at IS NULL AND m.kind = ANY(p_standing_kinds) AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    ORDER BY coalesce(m.last_used_at, m.created_at) DESC, m.id
    LIMIT p_standing_limit
  ),
  -- OFFSET 0 keeps this a subquery, so `hit` is evaluated once per row (not inlined twice below).
  tested AS (
    SELECT r.id, r.doc_len, r.embedding, r.fts, r.last_used_at, r.created_at, r.archived_at IS NOT NULL AS archived,
           ((SELECT q.any_query FROM q) IS NOT NULL AND r.fts @@ (SELECT q.any_query FROM q)) AS hit,
           r.id IN (SELECT s.id FROM standing_ids s) AS standing
    FROM rows_in_scope r
    OFFSET 0
  ),
  scoped AS MATERIALIZED (
    SELECT t.id, t.doc_len, t.archived, t.standing,
           CASE WHEN t.hit OR t.standing OR (CASE WHEN t.archived THEN p_archived_min_vsim ELSE p_min_vsim END) <= 1
                THEN memory_vector_dot(t.embedding, (SELECT q.vec FROM q)) END AS vsim,
           CASE WHEN t.hit OR t.standing OR (CASE WHEN t.archived THEN p_archived_min_vsim ELSE p_min_vsim END) <= 1
                THEN exp(-greatest(date_part('epoch', p_now - coalesce(t.last_used_at, t.created_at)), 0) / 86400.0 / p_decay_days) END AS recency,
           -- ts_delete twice keeps only the query's lexemes.
           CASE WHEN t.hit THEN ts_delete(t.fts, tsvector_to_array(ts_delete(t.fts, (SELECT q.lexemes FROM q))))::text END AS matched
    FROM tested t
  ),
  stats AS MATERIALIZED (
    SELECT count(*)::integer AS n, coalesce(avg(s.doc_len), 1)::double precision AS avgdl FROM scoped s
  ),
  chosen AS (
    SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched FROM scoped s WHERE s.matched IS NOT NULL
    UNION ALL
    (SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched FROM scoped s
     WHERE s.matched IS NULL AND s.vsim >= CASE WHEN s.archived THEN p_archived_min_vsim ELSE p_min_vsim END
     ORDER BY p_vector_weight * greatest(s.vsim, 0) + p_recency_weight * s.recency DESC, s.id
     LIMIT p_vector_limit)
    -- UNION: a standing row chosen above already comes back once.
    UNION
    SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched FROM scoped s WHERE s.standing
  )
  SELECT m.id, m.scope, m.tenant_id, m.user_id, m.kind, m.text, m.context, m.source_thread_id,
         m.source_message_id, m.source_run_id, m.origin, m.confidence, m.created_at, m.updated_at,
         m.last_used_at, m.access_count, m.expires_at, m.superseded_by, m.archived_at, m.metadata,
         c.doc_len, c.vsim, c.recency, c.matched, st.n, st.avgdl
  FROM chosen c JOIN memories m ON m.id = c.id CROSS JOIN stats st;
END
$fn$;
