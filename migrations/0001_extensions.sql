-- pgvector where the server has it (PGlite always; production Postgres normally). A server without
-- it still works: the store scores a scope's rows exactly (see docs/memory-model.md).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')
     AND NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    BEGIN
      CREATE EXTENSION vector WITH SCHEMA public;
    EXCEPTION
      WHEN insufficient_privilege THEN
        RAISE NOTICE 'langgraph-memory: pgvector is available but this role cannot create it; ask an operator to run CREATE EXTENSION vector';
      WHEN unique_violation OR duplicate_object THEN
        NULL; -- another schema's migrator created it at the same moment
    END;
  END IF;
END
$$;
