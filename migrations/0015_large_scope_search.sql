-- Large-scope search that ranks as the exact scan does, and one definition of an active memory
-- (issue 19; docs/benchmarks.md, "Retrieval at scale").
--
-- 1. memory_is_active: "retrievable at p_at" (not superseded, not expired, not deactivated) was
--    written out in every statement that reads memories. It is now this one SQL function. It is a
--    single SELECT of immutable operators, LANGUAGE sql IMMUTABLE and not STRICT, so the planner
--    inlines it: the statements calling it plan exactly as the written-out condition did (same
--    indexes, partial indexes included; test/integration/memory-is-active.test.ts checks the plans).
--
-- 2. memory_search_candidates, for a scope that takes its candidates from the HNSW index (0014):
--    the index's nearest rows alone were not what the exact scan ranks first. With the offline
--    embedder the lexical (BM25) part weighs 70% of the score and no row without a query word can
--    pass the floor, so the exact top 8 is made of rows holding query words, which the nearest
--    vectors often are not (ranked recall@8 0.708 at 20,000). And BM25 read its statistics (row
--    count, average length, document frequencies) from the 40 candidates instead of the scope.
--    Now a large scope's candidates are the index's nearest rows UNION every row of the scope
--    holding a query word or an expansion lexeme, found through a GIN index on `fts` (not by
--    testing every row), and the row count and average length are the scope's. Every row holding
--    a query word being a candidate, the document frequencies the ranking counts among the
--    candidates are the scope's too: where no row without a query word can pass the floor (the
--    offline embedder), the ranked top k is the exact scan's. Small scopes (v_ann NULL) run the
--    statement of 0011/0014 unchanged.
--
-- Where pgvector exists, memory_ensure_vector_index (0014) is restated to build, beside the HNSW
-- index, the GIN index on `fts` and a covering partial btree the scope statistics read (an
-- index-only scan instead of the heap, whose rows carry their vectors inline). Both on request,
-- with the HNSW index, for the reason 0014 gives (write cost in PGlite for scopes that never grow);
-- a database that already has an HNSW index gets them here. Without pgvector, a
-- memory_ann_candidate_ids that always answers NULL (no index: scan exactly) lets one definition of
-- memory_search_candidates serve both engines.

CREATE FUNCTION memory_is_active(p_superseded_by uuid, p_expires_at timestamptz, p_deactivated_at timestamptz, p_at timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT p_superseded_by IS NULL AND (p_expires_at IS NULL OR p_expires_at > p_at) AND p_deactivated_at IS NULL
$fn$;

DO $mig$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    -- No index can exist on this server: every scope is scanned exactly (as in 0011).
    EXECUTE $f$
      CREATE FUNCTION memory_ann_candidate_ids(
        p_tenant text, p_user text, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
        p_now timestamptz, p_embedding real[], p_limit integer
      ) RETURNS uuid[] LANGUAGE sql IMMUTABLE AS 'SELECT NULL::uuid[]'
    $f$;
    RETURN;
  END IF;

  -- As in migration 0014 (its comments hold), plus the two indexes a large scope's search reads
  -- besides the HNSW one: the GIN index on `fts` (rows holding a query word) and the covering
  -- btree of the scope statistics (row count and average length of the scope's active rows).
  -- Both are independent of the dimension: a rebuild for another dimension keeps them.
  EXECUTE $f$
    CREATE OR REPLACE FUNCTION memory_ensure_vector_index(p_dims integer) RETURNS text
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_name text := 'memories_embedding_hnsw_' || p_dims;
      v_old text;
    BEGIN
      IF p_dims IS NULL OR p_dims < 1 OR p_dims > 2000 THEN
        RAISE EXCEPTION 'memory_ensure_vector_index: an HNSW index takes 1 to 2000 dimensions, got %', p_dims
          USING ERRCODE = '22023', HINT = 'pass the dimension recorded in embedding_settings for vector_set ''memories''';
      END IF;
      FOR v_old IN
        SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'memories'::regclass AND c.relname LIKE 'memories\_embedding\_hnsw\_%' AND c.relname <> v_name
      LOOP
        EXECUTE format('DROP INDEX %I.%I', current_schema(), v_old);
      END LOOP;
      IF NOT EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                     WHERE i.indrelid = 'memories'::regclass AND c.relname = v_name) THEN
        EXECUTE format('CREATE INDEX %I ON %I.memories USING hnsw ((embedding::vector(%s)) vector_ip_ops) WHERE cardinality(embedding) = %s',
                       v_name, current_schema(), p_dims, p_dims);
      END IF;
      PERFORM memory_ensure_large_scope_indexes();
      RETURN v_name;
    END
    $fn$
  $f$;

  -- The GIN and statistics indexes of large-scope search (see memory_ensure_vector_index). The
  -- statistics index's predicate is the time-free part of memory_is_active, so that the inlined
  -- condition implies it; expires_at, kind and doc_len are included for an index-only scan.
  EXECUTE $f$
    CREATE FUNCTION memory_ensure_large_scope_indexes() RETURNS void
    LANGUAGE plpgsql AS $fn$
    BEGIN
      EXECUTE format('CREATE INDEX IF NOT EXISTS memories_fts_gin ON %I.memories USING gin (fts)', current_schema());
      EXECUTE format('CREATE INDEX IF NOT EXISTS memories_scope_stats_idx ON %I.memories (tenant_id, scope, user_id) INCLUDE (kind, expires_at, doc_len) '
                     'WHERE superseded_by IS NULL AND deactivated_at IS NULL', current_schema());
    END
    $fn$
  $f$;

  IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = 'memories'::regclass AND c.relname LIKE 'memories\_embedding\_hnsw\_%') THEN
    PERFORM memory_ensure_large_scope_indexes();
  END IF;

  -- As in migration 0014, with memory_is_active.
  EXECUTE $f$
    CREATE OR REPLACE FUNCTION memory_ann_nearest_sql(p_dims integer) RETURNS text
    LANGUAGE sql IMMUTABLE AS $fn$
      SELECT format($q$
        SELECT array_agg(s.id) FROM (
          SELECT m.id FROM memories m
          WHERE cardinality(m.embedding) = %1$s
            AND (($2::text IS NOT NULL AND m.tenant_id = $1 AND m.user_id = $2 AND m.scope = 'user')
                 OR ($3 AND m.tenant_id = $1 AND m.user_id IS NULL AND m.scope = 'tenant')
                 OR ($4 AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'))
            AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, $6)
            AND ($5::text[] IS NULL OR m.kind = ANY ($5))
          ORDER BY m.embedding::vector(%1$s) <#> $7::vector(%1$s)
          LIMIT $8
        ) s$q$, p_dims)
    $fn$
  $f$;
END
$mig$;

-- As in migration 0014 (comments of 0011 and 0014 hold), for both engines, with memory_is_active
-- and, for a large scope (v_ann not NULL), candidates = the index's nearest rows UNION the standing
-- ones UNION every row of the scope holding a query word or expansion lexeme (one GIN probe of
-- v_lex_query), and the statistics (`stats`) of the whole scope rather than of those rows.
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
  -- Small scope: the rows just scanned are the scope. Large scope: the scope's own count and
  -- average length (index-only through memories_scope_stats_idx where it exists), one row either way.
  stats AS MATERIALIZED (
    SELECT count(*)::integer AS n, coalesce(avg(s.doc_len), 1)::double precision AS avgdl FROM scoped s HAVING v_ann IS NULL
    UNION ALL
    SELECT count(*)::integer AS n, coalesce(avg(w.doc_len), 1)::double precision AS avgdl FROM (
      SELECT m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
        AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
        AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
      UNION ALL
      SELECT m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
        AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
        AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
      UNION ALL
      SELECT m.doc_len FROM memories m
      WHERE v_ann IS NOT NULL AND p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
        AND memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, p_now)
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
