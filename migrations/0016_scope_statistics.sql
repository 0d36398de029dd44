-- Scope statistics kept by the writes (docs/memory-model.md; docs/benchmarks.md, "Retrieval at
-- scale"). A large scope's search (an index search, migration 0015) ranks with BM25 over the whole
-- scope: it needs the scope's row count and average length, which 0015 read by an index-only scan
-- of every active row of the scope, a cost proportional to the scope's size on every search.
--
-- memory_scope_stats holds, per scope part (tenant, user, scope) and kind, the count and length sum
-- of the rows that are active whatever the time (not superseded, not deactivated, no expiry). Rows
-- with an expiry are left out because whether they count depends on the search's instant; a search
-- counts those exactly (they are few: episodes given a lifetime), through a partial index of their
-- own. Counts plus that exact part equal 0015's figures for every p_now.
--
-- The counters are sharded: a writer adds to the shard of its backend (pg_backend_pid() % 16), so
-- that concurrent writers to one tenant scope seldom wait on the same counter row, and a
-- transaction takes one counter row per (scope, kind) it writes, whatever its number of rows (a
-- shard per memory id would make a batch of a few dozen rows lock every shard, in row order: two
-- concurrent batches of one scope would queue on each other, or deadlock). A row counted in one
-- shard and removed through another leaves one shard negative; only the sums are meaningful.
--
-- Kept by row triggers on memories (the UPDATE one only for changes to the columns that decide
-- whether and where a row counts: usage marks do not fire it), created on request with the other
-- large-scope indexes (memory_ensure_large_scope_indexes, pgvector engines only), for the reason
-- 0014 gives for the HNSW index: an embedded app's small scopes would pay the write cost for
-- nothing, since only a large scope's search reads the counters. Creating the triggers rebuilds the
-- counts from the memories table in the same transaction (CREATE TRIGGER locks out writers until
-- it commits). The table exists on every engine, empty where nothing asked for it.
--
-- The ANN threshold's count (memory_ann_candidate_ids, up to langgraph_memory.ann_min_rows rows of
-- the scope) is left as it is: it counts every row of the scope, of any kind and lifecycle, which
-- these counters do not hold; counting active rows instead would move some scopes to the other
-- path and change their results.

CREATE TABLE memory_scope_stats (
  tenant_id text,
  user_id text,
  scope text NOT NULL,
  kind text NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  len_sum bigint NOT NULL,
  -- NULLS NOT DISTINCT: tenant and user are NULL for global rows, as in memories.
  CONSTRAINT memory_scope_stats_key UNIQUE NULLS NOT DISTINCT (tenant_id, user_id, scope, kind, shard)
);
-- Read with the visibility of the memories it counts; written only by the trigger function below
-- (SECURITY DEFINER) and by memory_ensure_large_scope_indexes (the owner).
ALTER TABLE memory_scope_stats ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_scope_stats_select ON memory_scope_stats FOR SELECT USING (memory_rls_visible(tenant_id, user_id));
-- Whoever may read memories may read their counters: an app role granted before this migration
-- (grantMemoryRoles, or GRANT ... ON ALL TABLES IN SCHEMA) would otherwise fail every search of a
-- large scope, and the planner checks the table for every search (42501, permission denied).
DO $grant$
DECLARE r record;
BEGIN
  FOR r IN SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(g.rolname) END AS who
           FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a LEFT JOIN pg_roles g ON g.oid = a.grantee
           WHERE c.oid = 'memories'::regclass AND a.privilege_type = 'SELECT' AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('GRANT SELECT ON memory_scope_stats TO %s', r.who);
  END LOOP;
END
$grant$;

-- The old row out if it counted, the new row in if it counts. TRUNCATE empties the counters.
-- A counter row brought back to zero is deleted (this transaction holds its lock since the
-- upsert, so nobody else changed it): a scope written and emptied by one backend, a user whose
-- data was deleted, leaves no row naming it. Rows of other shards may still sum to zero.
CREATE FUNCTION memory_scope_stats_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER AS $fn$
DECLARE
  v_shard smallint := (pg_backend_pid() % 16)::smallint;
  v_row tid;
  v_n bigint;
  v_len bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM memory_scope_stats;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.superseded_by IS NULL AND OLD.deactivated_at IS NULL AND OLD.expires_at IS NULL THEN
    INSERT INTO memory_scope_stats AS s (tenant_id, user_id, scope, kind, shard, n, len_sum)
    VALUES (OLD.tenant_id, OLD.user_id, OLD.scope, OLD.kind, v_shard, -1, -OLD.doc_len)
    ON CONFLICT (tenant_id, user_id, scope, kind, shard) DO UPDATE SET n = s.n + excluded.n, len_sum = s.len_sum + excluded.len_sum
    RETURNING s.ctid, s.n, s.len_sum INTO v_row, v_n, v_len;
    IF v_n = 0 AND v_len = 0 THEN
      DELETE FROM memory_scope_stats s WHERE s.ctid = v_row;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.superseded_by IS NULL AND NEW.deactivated_at IS NULL AND NEW.expires_at IS NULL THEN
    INSERT INTO memory_scope_stats AS s (tenant_id, user_id, scope, kind, shard, n, len_sum)
    VALUES (NEW.tenant_id, NEW.user_id, NEW.scope, NEW.kind, v_shard, 1, NEW.doc_len)
    ON CONFLICT (tenant_id, user_id, scope, kind, shard) DO UPDATE SET n = s.n + excluded.n, len_sum = s.len_sum + excluded.len_sum;
  END IF;
  RETURN NULL;
END
$fn$;
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION memory_scope_stats_apply() SET search_path = %I, public, pg_temp', current_schema());
END
$$;

DO $mig$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    RETURN;
  END IF;

  -- As in migration 0015, plus the partial index of the rows with an expiry (the part of a large
  -- scope's statistics the counters leave out) and the counters' triggers. The triggers are
  -- created, and the counts rebuilt, only when missing: the function stays idempotent.
  EXECUTE $f$
    CREATE OR REPLACE FUNCTION memory_ensure_large_scope_indexes() RETURNS void
    LANGUAGE plpgsql AS $fn$
    BEGIN
      EXECUTE format('CREATE INDEX IF NOT EXISTS memories_fts_gin ON %I.memories USING gin (fts)', current_schema());
      EXECUTE format('CREATE INDEX IF NOT EXISTS memories_scope_stats_idx ON %I.memories (tenant_id, scope, user_id) INCLUDE (kind, expires_at, doc_len) '
                     'WHERE superseded_by IS NULL AND deactivated_at IS NULL', current_schema());
      EXECUTE format('CREATE INDEX IF NOT EXISTS memories_scope_expiring_idx ON %I.memories (tenant_id, scope, user_id, expires_at) INCLUDE (kind, doc_len) '
                     'WHERE expires_at IS NOT NULL AND superseded_by IS NULL AND deactivated_at IS NULL', current_schema());
      IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'memories'::regclass AND tgname = 'memories_scope_stats_update') THEN
        RETURN;
      END IF;
      EXECUTE format('CREATE TRIGGER memories_scope_stats_insert AFTER INSERT ON %I.memories '
                     'FOR EACH ROW EXECUTE FUNCTION %I.memory_scope_stats_apply()', current_schema(), current_schema());
      EXECUTE format('CREATE TRIGGER memories_scope_stats_delete AFTER DELETE ON %I.memories '
                     'FOR EACH ROW EXECUTE FUNCTION %I.memory_scope_stats_apply()', current_schema(), current_schema());
      EXECUTE format('CREATE TRIGGER memories_scope_stats_truncate AFTER TRUNCATE ON %I.memories '
                     'FOR EACH STATEMENT EXECUTE FUNCTION %I.memory_scope_stats_apply()', current_schema(), current_schema());
      -- Only the columns that decide whether and where a row counts, and its length.
      EXECUTE format('CREATE TRIGGER memories_scope_stats_update AFTER UPDATE ON %I.memories FOR EACH ROW '
                     'WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.user_id IS DISTINCT FROM NEW.user_id '
                     'OR OLD.scope IS DISTINCT FROM NEW.scope OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.doc_len IS DISTINCT FROM NEW.doc_len '
                     'OR OLD.superseded_by IS DISTINCT FROM NEW.superseded_by OR OLD.deactivated_at IS DISTINCT FROM NEW.deactivated_at '
                     'OR OLD.expires_at IS DISTINCT FROM NEW.expires_at) '
                     'EXECUTE FUNCTION %I.memory_scope_stats_apply()', current_schema(), current_schema());
      -- The triggers' lock on memories keeps writers out until commit: the rebuild sees every row.
      DELETE FROM memory_scope_stats;
      INSERT INTO memory_scope_stats (tenant_id, user_id, scope, kind, shard, n, len_sum)
      SELECT m.tenant_id, m.user_id, m.scope, m.kind, (pg_backend_pid() % 16)::smallint, count(*), sum(m.doc_len)
      FROM memories m
      WHERE m.superseded_by IS NULL AND m.deactivated_at IS NULL AND m.expires_at IS NULL
      GROUP BY m.tenant_id, m.user_id, m.scope, m.kind;
    END
    $fn$
  $f$;

  IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = 'memories'::regclass AND c.relname LIKE 'memories\_embedding\_hnsw\_%') THEN
    PERFORM memory_ensure_large_scope_indexes();
  END IF;
END
$mig$;

-- As in migration 0015 (comments of 0011, 0014 and 0015 hold), for both engines, with a large
-- scope's statistics (`stats`) read from memory_scope_stats and the rows with an expiry.
CREATE OR REPLACE FUNCTION memory_search_candidates(
  p_tenant text, p_user text, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
  p_now timestamptz, p_query text, p_embedding real[], p_decay_days double precision,
  p_min_vsim double precision, p_vector_limit integer, p_vector_weight double precision,
  p_recency_weight double precision, p_archived_min_vsim double precision,
  p_standing_kinds text[], p_standing_limit integer, p_bridge_terms text DEFAULT NULL
) RETURNS TABLE (
  id uuid, scope text, tenant_id text, user_id text, kind text, text text, context text,
  source_thread_id text, source_message_id text, source_run_id text, origin text, confidence real,
  created_at timestamptz, updated_at timestamptz, last_used_at timestamptz, access_count integer,
  expires_at timestamptz, superseded_by uuid, archived_at timestamptz, metadata jsonb,
  doc_len integer, vsim double precision, recency double precision, matched text,
  scope_count integer, scope_avgdl double precision, bridged text, bridge_lexemes text
) LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  v_bridge text := memory_bridge_lexemes(p_query, p_bridge_terms);
  v_bridge_lexemes text[] := array(SELECT DISTINCT x FROM unnest(string_to_array(v_bridge, ' ')) x WHERE x <> '' ORDER BY x);
  v_bridge_query tsquery := CASE WHEN cardinality(v_bridge_lexemes) > 0
                                 THEN array_to_string(array(SELECT quote_literal(x) FROM unnest(v_bridge_lexemes) x), ' | ')::tsquery END;
  v_any_query tsquery := nullif(replace(plainto_tsquery('english', p_query)::text, ' & ', ' | '), '')::tsquery;
  -- Any query word or expansion lexeme: the rows a large scope's GIN probe returns.
  v_lex_query tsquery := CASE WHEN v_any_query IS NULL THEN v_bridge_query
                              WHEN v_bridge_query IS NULL THEN v_any_query
                              ELSE v_any_query || v_bridge_query END;
  v_ann uuid[] := memory_ann_candidate_ids(p_tenant, p_user, p_include_tenant, p_include_global, p_kinds, p_now, p_embedding,
                                           greatest(5 * p_vector_limit, 40));
BEGIN
  RETURN QUERY
  WITH q AS MATERIALIZED (
    SELECT memory_query_vector(p_embedding) AS vec,
           tsvector_to_array(to_tsvector('english', p_query)) AS lexemes,
           v_any_query AS any_query
  ),
  standing_ids AS MATERIALIZED (
    SELECT m.id FROM memories m
    WHERE p_standing_limit > 0 AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
      AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
      AND m.archived_at IS NULL AND m.kind = ANY(p_standing_kinds) AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    ORDER BY coalesce(m.last_used_at, m.created_at) DESC, m.id
    LIMIT p_standing_limit
  ),
  -- A large scope's candidate ids: nearest, standing, and every row holding a query word (GIN).
  -- Scope and lifecycle are checked when the rows are read (the fourth branch below).
  large_ids AS MATERIALIZED (
    SELECT a.id FROM unnest(v_ann) AS a(id)
    UNION
    SELECT s.id FROM standing_ids s WHERE v_ann IS NOT NULL
    UNION
    SELECT m.id FROM memories m
    WHERE v_ann IS NOT NULL AND m.fts @@ v_lex_query
      AND ((p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user')
           OR (p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant')
           OR (p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'))
  ),
  rows_in_scope AS (
    SELECT m.* FROM memories m
    WHERE v_ann IS NULL AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
      AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    UNION ALL
    SELECT m.* FROM memories m
    WHERE v_ann IS NULL AND p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
      AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    UNION ALL
    SELECT m.* FROM memories m
    WHERE v_ann IS NULL AND p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
      AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    UNION ALL
    SELECT m.* FROM memories m
    WHERE v_ann IS NOT NULL AND m.id = ANY (array(SELECT c.id FROM large_ids c))
      AND ((p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user')
           OR (p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant')
           OR (p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'))
      AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
      AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
  ),
  tested AS (
    SELECT r.id, r.doc_len, r.embedding, r.fts, r.last_used_at, r.created_at, r.archived_at IS NOT NULL AS archived,
           ((SELECT q.any_query FROM q) IS NOT NULL AND r.fts @@ (SELECT q.any_query FROM q)) AS hit,
           (v_bridge_query IS NOT NULL AND r.fts @@ v_bridge_query) AS bridge_hit,
           r.id IN (SELECT s.id FROM standing_ids s) AS standing
    FROM rows_in_scope r
    OFFSET 0
  ),
  scoped AS MATERIALIZED (
    SELECT t.id, t.doc_len, t.archived, t.standing,
           CASE WHEN t.hit OR t.bridge_hit OR t.standing OR (CASE WHEN t.archived THEN p_archived_min_vsim ELSE p_min_vsim END) <= 1
                THEN memory_vector_dot(t.embedding, (SELECT q.vec FROM q)) END AS vsim,
           CASE WHEN t.hit OR t.bridge_hit OR t.standing OR (CASE WHEN t.archived THEN p_archived_min_vsim ELSE p_min_vsim END) <= 1
                THEN exp(-greatest(date_part('epoch', p_now - coalesce(t.last_used_at, t.created_at)), 0) / 86400.0 / p_decay_days) END AS recency,
           CASE WHEN t.hit THEN ts_delete(t.fts, tsvector_to_array(ts_delete(t.fts, (SELECT q.lexemes FROM q))))::text END AS matched,
           CASE WHEN t.bridge_hit THEN ts_delete(t.fts, tsvector_to_array(ts_delete(t.fts, v_bridge_lexemes)))::text END AS bridged
    FROM tested t
  ),
  -- Small scope: the rows just scanned are the scope. Large scope: the scope's count and length
  -- sum from memory_scope_stats (rows active whatever the time), plus the rows with an expiry that
  -- are active at p_now, counted exactly (memories_scope_expiring_idx; `expires_at > p_now` written
  -- out as well so that expired rows the sweep has not yet removed are skipped by the index range,
  -- not read and filtered). The average is the sum
  -- divided by the count in numeric, as avg() computes it, so both give the same double.
  stats AS MATERIALIZED (
    SELECT count(*)::integer AS n, coalesce(avg(s.doc_len), 1)::double precision AS avgdl FROM scoped s HAVING v_ann IS NULL
    UNION ALL
    SELECT coalesce(sum(w.n), 0)::integer AS n, coalesce(sum(w.len_sum) / nullif(sum(w.n), 0), 1)::double precision AS avgdl FROM (
      SELECT c.n, c.len_sum FROM memory_scope_stats c
      WHERE v_ann IS NOT NULL AND p_user IS NOT NULL AND c.tenant_id = p_tenant AND c.user_id = p_user AND c.scope = 'user'
        AND (p_kinds IS NULL OR c.kind = ANY(p_kinds))
      UNION ALL
      SELECT c.n, c.len_sum FROM memory_scope_stats c
      WHERE v_ann IS NOT NULL AND p_include_tenant AND c.tenant_id = p_tenant AND c.user_id IS NULL AND c.scope = 'tenant'
        AND (p_kinds IS NULL OR c.kind = ANY(p_kinds))
      UNION ALL
      SELECT c.n, c.len_sum FROM memory_scope_stats c
      WHERE v_ann IS NOT NULL AND p_include_global AND c.tenant_id IS NULL AND c.user_id IS NULL AND c.scope = 'global'
        AND (p_kinds IS NULL OR c.kind = ANY(p_kinds))
      UNION ALL
      SELECT 1, m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
        AND m.expires_at > p_now AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
        AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
      UNION ALL
      SELECT 1, m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
        AND m.expires_at > p_now AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
        AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
      UNION ALL
      SELECT 1, m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
        AND m.expires_at > p_now AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
        AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    ) w HAVING v_ann IS NOT NULL
  ),
  chosen AS (
    SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched, s.bridged FROM scoped s WHERE s.matched IS NOT NULL OR s.bridged IS NOT NULL
    UNION ALL
    (SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched, s.bridged FROM scoped s
     WHERE s.matched IS NULL AND s.bridged IS NULL AND s.vsim >= CASE WHEN s.archived THEN p_archived_min_vsim ELSE p_min_vsim END
     ORDER BY p_vector_weight * greatest(s.vsim, 0) + p_recency_weight * s.recency DESC, s.id
     LIMIT p_vector_limit)
    UNION
    SELECT s.id, s.doc_len, s.vsim, s.recency, s.matched, s.bridged FROM scoped s WHERE s.standing
  )
  SELECT m.id, m.scope, m.tenant_id, m.user_id, m.kind, m.text, m.context, m.source_thread_id,
         m.source_message_id, m.source_run_id, m.origin, m.confidence, m.created_at, m.updated_at,
         m.last_used_at, m.access_count, m.expires_at, m.superseded_by, m.archived_at, m.metadata,
         c.doc_len, c.vsim, c.recency, c.matched, st.n, st.avgdl, c.bridged, v_bridge
  -- Each chosen row read back by primary key. A plain join let the generic plan (which must
  -- expect a whole scope's rows in `chosen`) hash-join against a sequential scan of the table:
  -- 50 of the 52 ms of a 20,000-row scope's index search (docs/benchmarks.md). OFFSET 0 keeps the
  -- lateral subquery from being flattened back into that join.
  FROM chosen c CROSS JOIN LATERAL (SELECT r.* FROM memories r WHERE r.id = c.id OFFSET 0) m CROSS JOIN stats st;
END
$fn$;
