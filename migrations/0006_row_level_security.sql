-- Row-level security: defence in depth beside the tenant/user predicates every statement already
-- carries (docs/operations.md). The library sets `langgraph_memory.tenant_id` / `user_id` for each
-- transaction (`db.transaction(fn, { scope })`, transaction-local set_config); the policies below
-- compare rows with them.
--
-- Who is subject: a role that is neither superuser, nor BYPASSRLS, nor the tables' owner — the
-- application role operators create (docs/operations.md). RLS is enabled but not FORCEd: the owner
-- (the role that runs these migrations) keeps seeing every row, which the cross-tenant maintenance
-- paths need (retention sweep, reembed, migrations that rewrite data). Superusers always bypass
-- RLS, FORCE or not; on PGlite the library runs as the superuser, so these policies are inert there.
--
-- Not covered: the checkpointer's tables (its statements are keyed by thread id and carry no scope
-- per transaction yet), embedding_settings (one row per vector set, no user data), retention_runs
-- (counts only) and migrations.

-- The transaction's scope; '' (a setting that was set earlier in the session, then reset at the
-- end of its transaction) and NULL (never set) both mean "none". current_setting is inlined in each
-- function (no function calls another) so that policy evaluation never depends on search_path.

-- Rows a scope may read: shared rows (no tenant), its tenant's shared rows, and its own user's rows.
CREATE FUNCTION memory_rls_visible(p_tenant text, p_user text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT p_tenant IS NULL
    OR (p_tenant = nullif(current_setting('langgraph_memory.tenant_id', true), '')
        AND (p_user IS NULL OR p_user = nullif(current_setting('langgraph_memory.user_id', true), '')))
$$;

-- Rows a scope may create or delete: exactly its own level — a user's rows for a user
-- transaction, the tenant's shared rows for a tenant transaction (no user), global rows for a
-- transaction without a tenant.
CREATE FUNCTION memory_rls_owns(p_tenant text, p_user text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT p_tenant IS NOT DISTINCT FROM nullif(current_setting('langgraph_memory.tenant_id', true), '')
     AND p_user IS NOT DISTINCT FROM nullif(current_setting('langgraph_memory.user_id', true), '')
$$;

-- Per-user tables: the row's tenant and user are the transaction's.
CREATE FUNCTION memory_rls_is_user(p_tenant text, p_user text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT p_tenant = nullif(current_setting('langgraph_memory.tenant_id', true), '')
     AND p_user = nullif(current_setting('langgraph_memory.user_id', true), '')
$$;

-- Per-tenant tables (the BaseStore door).
CREATE FUNCTION memory_rls_is_tenant(p_tenant text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT p_tenant = nullif(current_setting('langgraph_memory.tenant_id', true), '')
$$;

-- Job workers claim across tenants: members of the role `langgraph_memory_worker` (created by an
-- operator; absent → nobody) see every job. Their memory writes still run scoped.
CREATE FUNCTION memory_rls_is_worker() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = 'langgraph_memory_worker' AND pg_has_role(current_user, r.oid, 'USAGE'))
$$;

-- memories: read and update what the scope can see (markUsed records use of the tenant's and the
-- global knowledge a user's search returned); insert and delete only at the scope's own level.
ALTER TABLE memories ENABLE ROW LEVEL SECURITY;
CREATE POLICY memories_select ON memories FOR SELECT USING (memory_rls_visible(tenant_id, user_id));
CREATE POLICY memories_update ON memories FOR UPDATE USING (memory_rls_visible(tenant_id, user_id)) WITH CHECK (memory_rls_visible(tenant_id, user_id));
CREATE POLICY memories_insert ON memories FOR INSERT WITH CHECK (memory_rls_owns(tenant_id, user_id));
CREATE POLICY memories_delete ON memories FOR DELETE USING (memory_rls_owns(tenant_id, user_id));

-- procedural rules: a user reads the global, task, tenant and own rules; writes only at its level.
ALTER TABLE procedural_rules ENABLE ROW LEVEL SECURITY;
CREATE POLICY procedural_rules_select ON procedural_rules FOR SELECT USING (memory_rls_visible(tenant_id, user_id));
CREATE POLICY procedural_rules_insert ON procedural_rules FOR INSERT WITH CHECK (memory_rls_owns(tenant_id, user_id));
CREATE POLICY procedural_rules_update ON procedural_rules FOR UPDATE USING (memory_rls_owns(tenant_id, user_id)) WITH CHECK (memory_rls_owns(tenant_id, user_id));
CREATE POLICY procedural_rules_delete ON procedural_rules FOR DELETE USING (memory_rls_owns(tenant_id, user_id));

-- Per-user tables.
ALTER TABLE profiles ENABLE ROW LEVEL SECURITY;
CREATE POLICY profiles_user ON profiles USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));
ALTER TABLE profile_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY profile_history_user ON profile_history USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));
ALTER TABLE memory_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_settings_user ON memory_settings USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));
ALTER TABLE memory_confirmations ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_confirmations_user ON memory_confirmations USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));

-- The deletion audit is append-only for the application: it may add and read its own scope's
-- rows; no UPDATE or DELETE policy exists, so those are refused (operators purge as the owner).
ALTER TABLE memory_deletion_audit ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_deletion_audit_select ON memory_deletion_audit FOR SELECT USING (memory_rls_owns(tenant_id, user_id));
CREATE POLICY memory_deletion_audit_insert ON memory_deletion_audit FOR INSERT WITH CHECK (memory_rls_owns(tenant_id, user_id));

-- The BaseStore door is per tenant.
ALTER TABLE store_items ENABLE ROW LEVEL SECURITY;
CREATE POLICY store_items_tenant ON store_items USING (memory_rls_is_tenant(tenant_id)) WITH CHECK (memory_rls_is_tenant(tenant_id));
ALTER TABLE store_vectors ENABLE ROW LEVEL SECURITY;
CREATE POLICY store_vectors_tenant ON store_vectors USING (memory_rls_is_tenant(tenant_id)) WITH CHECK (memory_rls_is_tenant(tenant_id));

-- Jobs: the user's own jobs inside a scoped transaction; every job for a worker.
ALTER TABLE memory_jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_jobs_user ON memory_jobs USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));
CREATE POLICY memory_jobs_worker ON memory_jobs USING ((SELECT memory_rls_is_worker())) WITH CHECK ((SELECT memory_rls_is_worker()));
ALTER TABLE memory_jobs_inbox ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_jobs_inbox_user ON memory_jobs_inbox USING (memory_rls_is_user(tenant_id, user_id)) WITH CHECK (memory_rls_is_user(tenant_id, user_id));
CREATE POLICY memory_jobs_inbox_worker ON memory_jobs_inbox USING ((SELECT memory_rls_is_worker())) WITH CHECK ((SELECT memory_rls_is_worker()));

-- Enqueue and submit run on the response path in one statement without a transaction scope
-- (src/jobs/job-queue.ts). Each only ever inserts or merges a job (or an inbox row) for the tenant
-- and user it is given, so they run with their owner's rights (who is not subject to RLS), with a
-- pinned search_path as every SECURITY DEFINER function must have. The fold moves inbox rows into
-- jobs through enqueue and returns only a count: any caller may run it (claims do, as workers).
DO $$
DECLARE
  f text;
BEGIN
  FOREACH f IN ARRAY ARRAY[
    'memory_jobs_enqueue(text, text, text, text, text, jsonb, integer, float8, float8, timestamptz, text, text)',
    'memory_jobs_submit(text, text, text, text, text, jsonb, integer, float8, float8, timestamptz, text, text)',
    'memory_jobs_fold_inbox(text, integer)'
  ] LOOP
    EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = %I, public, pg_temp', f, current_schema());
  END LOOP;
END
$$;
