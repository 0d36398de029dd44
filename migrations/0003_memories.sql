-- Long-term memory (DESIGN §1, §4): the typed memory table, the LangGraph BaseStore items, and the
-- recorded embedding model. One file for both engines: embeddings are stored as real[] everywhere;
-- the similarity function below uses pgvector when the extension is installed and exact SQL
-- arithmetic when it is not (same results, see docs/memory-model.md).

-- Which embedder wrote the vectors of each vector set ("memories", "items"), and their dimension.
-- A vector of another length, or from another embedder, is refused until `langgraph-memory reembed`.
CREATE TABLE embedding_settings (
  vector_set text PRIMARY KEY,
  embedder text NOT NULL,
  dims integer NOT NULL CHECK (dims > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Whose memory: 'user' (tenant_id + user_id), 'tenant' (shared knowledge, user_id NULL) or
  -- 'global' (tenant_id and user_id NULL). Explicit so a NULL can never widen a scope by accident.
  scope text NOT NULL,
  tenant_id text,
  user_id text,
  kind text NOT NULL CHECK (kind IN ('preference', 'fact', 'entity', 'episode', 'procedure', 'knowledge')),
  text text NOT NULL CHECK (length(text) > 0),
  -- Indexing-only text (e.g. the surrounding conversation turns): searched with a lower weight,
  -- never rendered into prompts.
  context text,
  embedding real[] NOT NULL,
  -- Body lexemes weigh 'A', context lexemes 'D'; BM25 reads the weights (src/store/memory-queries.ts).
  fts tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', text), 'A') || setweight(to_tsvector('english', coalesce(context, '')), 'D')
  ) STORED,
  -- Lexemes of the body, the BM25 document length.
  doc_len integer GENERATED ALWAYS AS (length(to_tsvector('english', text))) STORED,
  source_thread_id text,
  source_message_id text,
  source_run_id text,
  origin text NOT NULL DEFAULT 'user_stated' CHECK (origin IN ('user_stated', 'extracted', 'inferred')),
  confidence real NOT NULL DEFAULT 1 CHECK (confidence >= 0 AND confidence <= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  access_count integer NOT NULL DEFAULT 0,
  expires_at timestamptz,
  -- The memory that replaced this one. No foreign key on purpose: deleting the newer memory must
  -- not resurrect the one it replaced.
  superseded_by uuid,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- coalesce: a CHECK that evaluates to NULL passes, so a NULL id must compare as ''.
  CONSTRAINT memories_scope_columns CHECK (
    (scope = 'user' AND coalesce(tenant_id, '') <> '' AND coalesce(user_id, '') <> '')
    OR (scope = 'tenant' AND coalesce(tenant_id, '') <> '' AND user_id IS NULL)
    OR (scope = 'global' AND tenant_id IS NULL AND user_id IS NULL)
  )
);

-- Vectors stay inline (uncompressed, never TOASTed): reading a compressed or out-of-line array
-- costs ~8× more per row in a scope scan. The store therefore caps vectors at 1536 dimensions.
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE PLAIN;

-- Tenant and user lead every index. A user's set is small (tens to thousands): the btree narrows
-- to it and similarity is computed exactly over those rows.
CREATE INDEX memories_scope_idx ON memories (tenant_id, user_id, kind, created_at);
CREATE INDEX memories_tenant_scope_idx ON memories (tenant_id, scope) WHERE user_id IS NULL;
CREATE INDEX memories_superseded_idx ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX memories_expires_idx ON memories (expires_at) WHERE expires_at IS NOT NULL;

-- The LangGraph BaseStore door: key/value items under hierarchical namespaces, per tenant.
CREATE TABLE store_items (
  tenant_id text NOT NULL,
  namespace text[] NOT NULL CHECK (cardinality(namespace) > 0),
  key text NOT NULL,
  value jsonb NOT NULL,
  -- Insertion order, so unranked searches list items as InMemoryStore does.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ttl_minutes double precision,
  expires_at timestamptz,
  PRIMARY KEY (tenant_id, namespace, key)
);
CREATE INDEX store_items_expires_idx ON store_items (tenant_id, expires_at) WHERE expires_at IS NOT NULL;

-- One vector per indexed field path of an item (as InMemoryStore keeps them).
CREATE TABLE store_vectors (
  tenant_id text NOT NULL,
  namespace text[] NOT NULL,
  key text NOT NULL,
  field text NOT NULL,
  embedding real[] NOT NULL,
  PRIMARY KEY (tenant_id, namespace, key, field),
  FOREIGN KEY (tenant_id, namespace, key) REFERENCES store_items (tenant_id, namespace, key) ON DELETE CASCADE
);
ALTER TABLE store_vectors ALTER COLUMN embedding SET STORAGE PLAIN;

-- Similarity of two unit vectors (dot product = cosine). Where pgvector exists the query vector
-- is converted once (`memory_query_vector`) and each row goes through pgvector's inner product;
-- elsewhere both functions are plain SQL. The statements calling them are the same on both.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE $f$
      CREATE FUNCTION memory_query_vector(q real[]) RETURNS vector
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT q::vector'
    $f$;
    EXECUTE $f$
      CREATE FUNCTION memory_vector_dot(a real[], q vector) RETURNS double precision
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT -((a::vector) <#> q)'
    $f$;
  ELSE
    EXECUTE $f$
      CREATE FUNCTION memory_query_vector(q real[]) RETURNS real[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT q'
    $f$;
    EXECUTE $f$
      CREATE FUNCTION memory_vector_dot(a real[], q real[]) RETURNS double precision
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT sum(x::double precision * y) FROM unnest(a, q) AS t(x, y)'
    $f$;
  END IF;
END
$$;

-- The hybrid search function, memory_search_candidates, is defined in migration 0007 (once, in its
-- final form: it reads the lifecycle columns of 0005).
