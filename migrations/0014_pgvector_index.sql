-- pgvector as an index where the extension exists (issue 19; docs/memory-model.md, "pgvector or
-- not"). Without pgvector this migration does nothing: the server keeps migration 0011's exact
-- search, unchanged.
--
-- The index is an HNSW index on an expression of the stored real[] (`embedding::vector(n)`), not a
-- second column: the heap keeps one copy of each vector, written and read exactly as on a server
-- without pgvector, and the index holds the vector(n) copy. It is partial (`cardinality(embedding)
-- = n`) so that rows of another dimension, mid-`reembed`, are simply not in it, and it is named
-- after its dimension (`memories_embedding_hnsw_<n>`).
--
-- It is built on request (memory_ensure_vector_index), not at the first write: in PGlite (WASM) an
-- HNSW insert of a 512-dimension vector costs ~30 ms, which every write of an embedded app would
-- pay for a scope it may never grow (docs/benchmarks.md, "Retrieval at scale"). Once built, it
-- follows the recorded dimension: `reembed` to another dimension rebuilds it for the new one inside
-- the re-embedding transaction.
--
-- memory_search_candidates (0011) is recreated with one change: a scope of at least
-- `langgraph_memory.ann_min_rows` rows (default 5,000) takes its candidates from the index (the
-- nearest rows of the scope, by a filtered iterative scan) instead of from a scan of every row.
-- Smaller per-user scopes keep the exact scan, which is faster there and exact.
DO $mig$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    RETURN;
  END IF;

  -- Build the HNSW index for vectors of p_dims dimensions (when missing) and drop those of other
  -- dimensions; returns the index name. Run by the table's owner: an operator once (`SELECT
  -- memory_ensure_vector_index(dims)`), then the trigger below on every dimension change.
  EXECUTE $f$
    CREATE FUNCTION memory_ensure_vector_index(p_dims integer) RETURNS text
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
      RETURN v_name;
    END
    $fn$
  $f$;

  -- A recorded dimension that changes (`reembed`, or a first write after the index was built
  -- ahead of any memory) moves the index to it, in the same transaction. Only once an index
  -- exists: building one stays the operator's choice. SECURITY DEFINER: the writer recording the
  -- first dimension may be the app role, which cannot create indexes.
  EXECUTE $f$
    CREATE FUNCTION memory_vector_index_follow() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER AS $fn$
    BEGIN
      IF NEW.vector_set = 'memories' AND EXISTS (
        SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'memories'::regclass AND c.relname LIKE 'memories\_embedding\_hnsw\_%'
      ) THEN
        PERFORM memory_ensure_vector_index(NEW.dims);
      END IF;
      RETURN NULL;
    END
    $fn$
  $f$;
  EXECUTE format('ALTER FUNCTION memory_vector_index_follow() SET search_path = %I, public, pg_temp', current_schema());
  CREATE TRIGGER embedding_settings_vector_index AFTER INSERT OR UPDATE OF dims ON embedding_settings
    FOR EACH ROW EXECUTE FUNCTION memory_vector_index_follow();

  -- The nearest-rows statement of memory_ann_candidate_ids for vectors of p_dims dimensions
  -- (parameters: tenant, user, include tenant, include global, kinds, now, query vector, limit).
  -- The dimension is a literal: only then do its expression and predicate match the index's.
  -- A function of its own so that tests can EXPLAIN the very statement searches run.
  EXECUTE $f$
    CREATE FUNCTION memory_ann_nearest_sql(p_dims integer) RETURNS text
    LANGUAGE sql IMMUTABLE AS $fn$
      SELECT format($q$
        SELECT array_agg(s.id) FROM (
          SELECT m.id FROM memories m
          WHERE cardinality(m.embedding) = %1$s
            AND (($2::text IS NOT NULL AND m.tenant_id = $1 AND m.user_id = $2 AND m.scope = 'user')
                 OR ($3 AND m.tenant_id = $1 AND m.user_id IS NULL AND m.scope = 'tenant')
                 OR ($4 AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'))
            AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > $6) AND m.deactivated_at IS NULL
            AND ($5::text[] IS NULL OR m.kind = ANY ($5))
          ORDER BY m.embedding::vector(%1$s) <#> $7::vector(%1$s)
          LIMIT $8
        ) s$q$, p_dims)
    $fn$
  $f$;

  -- The ids of the scope's p_limit nearest retrievable rows by the index, or NULL when the search
  -- should scan exactly: no index for the query's dimension, or a scope of fewer than
  -- `langgraph_memory.ann_min_rows` rows (counted up to that many, through the scope's btree; 0:
  -- always the index). The scope predicates are those of memory_search_candidates. In the nearest
  -- statement (memory_ann_nearest_sql), hnsw.iterative_scan lets the scan go on past ef_search until
  -- enough rows of this scope are found (pgvector 0.8); enable_sort off keeps the planner from
  -- sorting the scope's btree range instead (it would on a scope it thinks small: exact, and as slow
  -- as the scan this replaces). ef_search is at least 100 (or the session's own, when higher:
  -- `ALTER DATABASE … SET hnsw.ef_search = 200` trades lookup time for recall). The settings are
  -- put back after the statement.
  EXECUTE $f$
    CREATE FUNCTION memory_ann_candidate_ids(
      p_tenant text, p_user text, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
      p_now timestamptz, p_embedding real[], p_limit integer
    ) RETURNS uuid[]
    LANGUAGE plpgsql STABLE AS $fn$
    DECLARE
      v_dims integer := cardinality(p_embedding);
      v_min integer := coalesce(nullif(current_setting('langgraph_memory.ann_min_rows', true), '')::integer, 5000);
      v_rows integer;
      v_ids uuid[];
      v_scan text;
      v_ef text;
      v_sort text;
    BEGIN
      IF v_dims IS NULL OR v_dims > 2000 OR to_regclass('memories_embedding_hnsw_' || v_dims) IS NULL THEN
        RETURN NULL;
      END IF;
      SELECT count(*)::integer INTO v_rows FROM (
        SELECT 1 FROM memories m WHERE p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
        UNION ALL
        SELECT 1 FROM memories m WHERE p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
        UNION ALL
        SELECT 1 FROM memories m WHERE p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
        LIMIT greatest(v_min, 0)
      ) s;
      IF v_rows < v_min THEN
        RETURN NULL;
      END IF;
      v_scan := current_setting('hnsw.iterative_scan', true);
      v_ef := current_setting('hnsw.ef_search', true);
      v_sort := current_setting('enable_sort');
      PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', least(greatest(2 * p_limit, 100, coalesce(nullif(v_ef, ''), '40')::integer), 1000)::text, true),
              set_config('enable_sort', 'off', true);
      EXECUTE memory_ann_nearest_sql(v_dims)
      INTO v_ids
      USING p_tenant, p_user, p_include_tenant, p_include_global, p_kinds, p_now, p_embedding, p_limit;
      PERFORM set_config('hnsw.iterative_scan', coalesce(v_scan, 'off'), true), set_config('hnsw.ef_search', coalesce(v_ef, '40'), true),
              set_config('enable_sort', v_sort, true);
      RETURN coalesce(v_ids, '{}'::uuid[]);
    END
    $fn$
  $f$;

  -- As in migration 0011 (its comments hold), with the candidates of a large scope taken from the
  -- index: the three scope branches run only without index candidates (v_ann NULL); with them, a
  -- fourth branch reads those rows and the standing ones by primary key, scope and lifecycle
  -- checked again. Everything after (matched lexemes, similarity, the scope statistics BM25 uses)
  -- is then computed over those rows.
  EXECUTE $f$
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
      -- Five times the rows a search returns (at least 40): room for the rows holding a query word
      -- among the nearest, which rank first.
      v_ann uuid[] := memory_ann_candidate_ids(p_tenant, p_user, p_include_tenant, p_include_global, p_kinds, p_now, p_embedding,
                                               greatest(5 * p_vector_limit, 40));
    BEGIN
      RETURN QUERY
      WITH q AS MATERIALIZED (
        SELECT memory_query_vector(p_embedding) AS vec,
               tsvector_to_array(to_tsvector('english', p_query)) AS lexemes,
               nullif(replace(plainto_tsquery('english', p_query)::text, ' & ', ' | '), '')::tsquery AS any_query
      ),
      standing_ids AS MATERIALIZED (
        SELECT m.id FROM memories m
        WHERE p_standing_limit > 0 AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
          AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
          AND m.archived_at IS NULL AND m.kind = ANY(p_standing_kinds) AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
        ORDER BY coalesce(m.last_used_at, m.created_at) DESC, m.id
        LIMIT p_standing_limit
      ),
      rows_in_scope AS (
        SELECT m.* FROM memories m
        WHERE v_ann IS NULL AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
          AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
          AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
        UNION ALL
        SELECT m.* FROM memories m
        WHERE v_ann IS NULL AND p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant'
          AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
          AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
        UNION ALL
        SELECT m.* FROM memories m
        WHERE v_ann IS NULL AND p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'
          AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
          AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
        UNION ALL
        SELECT m.* FROM memories m
        WHERE v_ann IS NOT NULL AND m.id = ANY (v_ann || array(SELECT s.id FROM standing_ids s))
          AND ((p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user')
               OR (p_include_tenant AND m.tenant_id = p_tenant AND m.user_id IS NULL AND m.scope = 'tenant')
               OR (p_include_global AND m.tenant_id IS NULL AND m.user_id IS NULL AND m.scope = 'global'))
          AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
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
      stats AS MATERIALIZED (
        SELECT count(*)::integer AS n, coalesce(avg(s.doc_len), 1)::double precision AS avgdl FROM scoped s
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
      FROM chosen c JOIN memories m ON m.id = c.id CROSS JOIN stats st;
    END
    $fn$
  $f$;

END
$mig$;
