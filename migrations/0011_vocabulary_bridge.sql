-- Retrieval that bridges vocabulary (src/language/lexicon, docs/retrieval.md): a search may carry
-- expansion terms, words related to the query's through WordNet ("kid" → "child", "daughter"),
-- chosen once per query in TypeScript and passed here as data (p_bridge_terms, space-separated). A memory holding
-- one of their lexemes is a candidate like one holding a query word; its `bridged` column carries
-- those lexemes (tsvector text, as `matched` carries the query's), and `bridge_lexemes` says which
-- lexeme each term stems to, so the ranking (src/store/hybrid-scoring.ts) weighs each one at its
-- term's weight, below an exact word. The candidate cache (src/retrieval/cached-candidates.ts)
-- gets the same lexemes from memory_load_head and chooses the same rows.
--
-- The functions of migrations 0007 and 0008 are recreated with one more, optional argument (last,
-- default NULL: no expansion, the former behaviour) and the new columns; callers name their
-- arguments, so a later argument does not shift the others.

DROP FUNCTION memory_thread_load_context(text, text, text, boolean, boolean, text, integer, boolean, boolean, boolean, text[],
  timestamptz, text, real[], double precision, double precision, integer, double precision, double precision, double precision, text[], integer);
DROP FUNCTION memory_thread_load_head(text, text, text, boolean, boolean, text, integer, boolean, text, bigint);
DROP FUNCTION memory_load_context(text, text, boolean, boolean, text, integer, boolean, boolean, boolean, text[],
  timestamptz, text, real[], double precision, double precision, integer, double precision, double precision, double precision, text[], integer);
DROP FUNCTION memory_load_head(text, text, boolean, boolean, text, integer, boolean, text, bigint);
DROP FUNCTION memory_search_candidates(text, text, boolean, boolean, text[], timestamptz, text, real[], double precision,
  double precision, integer, double precision, double precision, double precision, text[], integer);

-- The expansion terms are one text, space-separated (a text[] parameter of 64 words cost more to
-- pass than to stem). The lexeme of each term as the search matches it, space-separated in the terms' order,
-- '' for a term that has none: a stop word, not a single lowercase word, or a lexeme of the query
-- itself (an exact match counts once, at full weight). NULL without terms. A single lowercase word
-- is one `asciiword` token, which the `english` configuration gives to the `english_stem`
-- dictionary: ts_lexize with that dictionary is what to_tsvector would make of it, without running
-- the parser once per term. PL/pgSQL so that its plan is cached per session.
CREATE FUNCTION memory_bridge_lexemes(p_query text, p_terms text) RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_own text[];
BEGIN
  IF p_terms IS NULL OR p_terms = '' THEN
    RETURN NULL;
  END IF;
  v_own := tsvector_to_array(to_tsvector('english', coalesce(p_query, '')));
  RETURN array_to_string(array(
    SELECT CASE WHEN l.lexeme IS NULL OR l.lexeme = ANY (v_own) THEN '' ELSE l.lexeme END
    FROM unnest(string_to_array(p_terms, ' ')) WITH ORDINALITY AS x(t, n)
      CROSS JOIN LATERAL (SELECT CASE WHEN x.t ~ '^[a-z]+$' THEN (ts_lexize('english_stem', x.t))[1] END AS lexeme) l
    ORDER BY x.n), ' ');
END
$fn$;

-- As in migration 0007, plus `query_bridge`: with a current p_cached_version, memory_bridge_lexemes
-- of p_bridge_terms (the cached search needs them as it needs `query_lexemes`).
CREATE FUNCTION memory_load_head(
  p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_query text, p_cached_version bigint, p_bridge_terms text DEFAULT NULL
) RETURNS TABLE (opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[], query_bridge text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
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
        query_bridge := memory_bridge_lexemes(p_query, p_bridge_terms);
      END IF;
    END IF;
  END IF;
  RETURN NEXT;
END
$fn$;

-- As in migration 0007, with p_bridge_terms passed on and the new columns.
CREATE FUNCTION memory_load_context(
  p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
  p_now timestamptz, p_query text, p_embedding real[], p_decay_days double precision,
  p_min_vsim double precision, p_vector_limit integer, p_vector_weight double precision,
  p_recency_weight double precision, p_archived_min_vsim double precision,
  p_standing_kinds text[], p_standing_limit integer, p_bridge_terms text DEFAULT NULL
) RETURNS TABLE (
  opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[], query_bridge text,
  id uuid, scope text, tenant_id text, user_id text, kind text, text text, context text,
  source_thread_id text, source_message_id text, source_run_id text, origin text, confidence real,
  created_at timestamptz, updated_at timestamptz, last_used_at timestamptz, access_count integer,
  expires_at timestamptz, superseded_by uuid, archived_at timestamptz, metadata jsonb,
  doc_len integer, vsim double precision, recency double precision, matched text,
  scope_count integer, scope_avgdl double precision, bridged text, bridge_lexemes text
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
  SELECT NULL::boolean, NULL::jsonb, NULL::jsonb, NULL::bigint, NULL::text[], NULL::text, c.*
  FROM memory_search_candidates(p_tenant, p_user, p_include_tenant, p_include_global, p_kinds, p_now, p_query,
                                p_embedding, p_decay_days, p_min_vsim, p_vector_limit, p_vector_weight, p_recency_weight,
                                p_archived_min_vsim, p_standing_kinds, p_standing_limit, p_bridge_terms) c;
END
$fn$;

-- As in migration 0007 (its comments hold), plus the expansion terms: a row holding one of their
-- lexemes is chosen as a row holding a query word is, and `bridged` lists those lexemes.
CREATE FUNCTION memory_search_candidates(
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
  -- Computed once, read by the statement as parameters.
  v_bridge text := memory_bridge_lexemes(p_query, p_bridge_terms);
  v_bridge_lexemes text[] := array(SELECT DISTINCT x FROM unnest(string_to_array(v_bridge, ' ')) x WHERE x <> '' ORDER BY x);
  v_bridge_query tsquery := CASE WHEN cardinality(v_bridge_lexemes) > 0
                                 THEN array_to_string(array(SELECT quote_literal(x) FROM unnest(v_bridge_lexemes) x), ' | ')::tsquery END;
BEGIN
  RETURN QUERY
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
  standing_ids AS MATERIALIZED (
    SELECT m.id FROM memories m
    WHERE p_standing_limit > 0 AND p_user IS NOT NULL AND m.tenant_id = p_tenant AND m.user_id = p_user AND m.scope = 'user'
      AND m.superseded_by IS NULL AND (m.expires_at IS NULL OR m.expires_at > p_now) AND m.deactivated_at IS NULL
      AND m.archived_at IS NULL AND m.kind = ANY(p_standing_kinds) AND (p_kinds IS NULL OR m.kind = ANY(p_kinds))
    ORDER BY coalesce(m.last_used_at, m.created_at) DESC, m.id
    LIMIT p_standing_limit
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
$fn$;

-- As in migration 0008, with p_bridge_terms passed on.
CREATE FUNCTION memory_thread_load_head(
  p_thread_id text, p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_query text, p_cached_version bigint, p_bridge_terms text DEFAULT NULL
) RETURNS TABLE (opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[], query_bridge text)
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
  RETURN QUERY SELECT * FROM memory_load_head(p_tenant, p_user, p_profile, p_rules, p_task_type, p_rule_limit, p_search, p_query, p_cached_version, p_bridge_terms);
END
$fn$;

CREATE FUNCTION memory_thread_load_context(
  p_thread_id text, p_tenant text, p_user text,
  p_profile boolean, p_rules boolean, p_task_type text, p_rule_limit integer,
  p_search boolean, p_include_tenant boolean, p_include_global boolean, p_kinds text[],
  p_now timestamptz, p_query text, p_embedding real[], p_decay_days double precision,
  p_min_vsim double precision, p_vector_limit integer, p_vector_weight double precision,
  p_recency_weight double precision, p_archived_min_vsim double precision,
  p_standing_kinds text[], p_standing_limit integer, p_bridge_terms text DEFAULT NULL
) RETURNS TABLE (
  opted_out boolean, profile jsonb, rules jsonb, memories_version bigint, query_lexemes text[], query_bridge text,
  id uuid, scope text, tenant_id text, user_id text, kind text, text text, context text,
  source_thread_id text, source_message_id text, source_run_id text, origin text, confidence real,
  created_at timestamptz, updated_at timestamptz, last_used_at timestamptz, access_count integer,
  expires_at timestamptz, superseded_by uuid, archived_at timestamptz, metadata jsonb,
  doc_len integer, vsim double precision, recency double precision, matched text,
  scope_count integer, scope_avgdl double precision, bridged text, bridge_lexemes text
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
    p_vector_weight, p_recency_weight, p_archived_min_vsim, p_standing_kinds, p_standing_limit, p_bridge_terms);
END
$fn$;
