-- Enqueue and submit act only for the transaction's own scope (issue 17; docs/security.md).
--
-- Migration 0006 made memory_jobs_enqueue and memory_jobs_submit SECURITY DEFINER so that the
-- response path could call them in one statement without a transaction scope. That let any role
-- with EXECUTE queue work for any tenant and user: as the app role scoped to tenant "evil", a
-- call with tenant "acme" and user "bob" succeeded, and the worker then wrote the attacker's
-- payload into bob's memories. Both now run with their caller's rights (SECURITY INVOKER), so the
-- row-level security policies of memory_jobs and memory_jobs_inbox apply to the rows they write,
-- and each first compares its tenant and user arguments with the transaction's scope
-- (`langgraph_memory.tenant_id` / `user_id`), refusing a mismatch with insufficient_privilege
-- (42501) and a message saying what to set. Callers RLS does not restrict (the owner, a
-- superuser, PGlite's user) and members of `langgraph_memory_worker` (who serve every tenant by
-- design, migration 0006) are not checked. memory_jobs_fold_inbox stays SECURITY DEFINER: it only
-- moves rows already in the inbox — which now only their own scope could put there — into jobs,
-- through memory_jobs_enqueue as the owner, and returns a count.
--
-- The library keeps its one round trip: its enqueue and submit statements pass the tenant argument
-- through memory_scope_default, which sets the transaction-local scope to the job's tenant and
-- user when the statement runs without one (a statement outside a transaction is its own
-- transaction, so the scope ends with it) and leaves a scope the caller's transaction has alone.
--
-- The other SECURITY DEFINER function, memory_versions_bump (migration 0007), is a statement
-- trigger on memories: it cannot be called directly, and it only bumps the version counters of the
-- owners of rows the triggering statement changed, which RLS had already allowed.

-- The tenant argument of a statement acting for (p_tenant, p_user); when the transaction has no
-- scope yet, it becomes theirs (transaction-local, as applyScope in src/db/scope-settings.ts sets
-- it). A scope already set is kept, so a transaction scoped to another user stays refused.
CREATE FUNCTION memory_scope_default(p_tenant text, p_user text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  IF coalesce(current_setting('langgraph_memory.tenant_id', true), '') = '' THEN
    PERFORM set_config('langgraph_memory.tenant_id', p_tenant, true), set_config('langgraph_memory.user_id', coalesce(p_user, ''), true);
  END IF;
  RETURN p_tenant;
END
$fn$;

-- As in migration 0004, with the scope check first.
CREATE OR REPLACE FUNCTION memory_jobs_enqueue(
  p_queue text, p_tenant_id text, p_user_id text, p_group_key text, p_key text, p_payload jsonb,
  p_max_attempts integer, p_debounce_ms float8, p_max_wait_ms float8, p_now timestamptz,
  p_channel text, p_merge text
) RETURNS TABLE (job_id bigint, job_run_after timestamptz, inserted boolean, due_in_ms float8)
LANGUAGE plpgsql SECURITY INVOKER AS $$
DECLARE
  v_now timestamptz := COALESCE(p_now, now());
BEGIN
  IF row_security_active('memory_jobs') AND memory_rls_is_user(p_tenant_id, p_user_id) IS NOT TRUE AND NOT memory_rls_is_worker() THEN
    RAISE EXCEPTION 'memory_jobs_enqueue: the job''s tenant and user are not the scope of this transaction'
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'set langgraph_memory.tenant_id and langgraph_memory.user_id to the job''s tenant and user for the transaction (set_config(name, value, true))';
  END IF;
  IF EXISTS (
      SELECT 1 FROM memory_jobs d
      WHERE d.tenant_id = p_tenant_id AND d.user_id = p_user_id AND d.queue = p_queue AND d.group_key = p_group_key
        AND d.state <> 'failed' AND p_key = ANY (d.merged_keys))
    OR EXISTS (
      SELECT 1 FROM memory_jobs d
      WHERE d.tenant_id = p_tenant_id AND d.user_id = p_user_id AND d.queue = p_queue AND d.idempotency_key = p_key
        AND d.state IN ('running', 'done')) THEN
    RETURN;
  END IF;
  INSERT INTO memory_jobs AS j (queue, tenant_id, user_id, group_key, idempotency_key, merged_keys, payload, merge,
    max_attempts, run_after, created_at, updated_at)
  VALUES (p_queue, p_tenant_id, p_user_id, p_group_key, p_key, ARRAY[p_key], p_payload, p_merge, p_max_attempts,
    v_now + p_debounce_ms * interval '1 millisecond', v_now, v_now)
  ON CONFLICT (tenant_id, user_id, queue, group_key) WHERE state = 'pending'
  DO UPDATE SET
    payload = memory_jobs_merge(EXCLUDED.merge, j.payload, EXCLUDED.payload),
    merge = EXCLUDED.merge,
    idempotency_key = EXCLUDED.idempotency_key,
    merged_keys = j.merged_keys || EXCLUDED.idempotency_key,
    max_attempts = GREATEST(j.max_attempts, EXCLUDED.max_attempts),
    run_after = CASE WHEN j.attempts > 0 THEN GREATEST(j.run_after, EXCLUDED.run_after)
      ELSE LEAST(EXCLUDED.run_after, GREATEST(j.run_after, j.created_at + p_max_wait_ms * interval '1 millisecond')) END,
    updated_at = EXCLUDED.updated_at
  WHERE NOT (EXCLUDED.idempotency_key = ANY (j.merged_keys))
  RETURNING j.id, j.run_after, cardinality(j.merged_keys) = 1 INTO job_id, job_run_after, inserted;
  IF NOT FOUND THEN
    RETURN; -- the same key was merged by a concurrent enqueue
  END IF;
  due_in_ms := GREATEST(0, extract(epoch FROM job_run_after - v_now) * 1000);
  IF inserted AND p_channel IS NOT NULL THEN
    PERFORM pg_notify(p_channel, json_build_object('queue', p_queue, 'dueInMs', round(due_in_ms))::text);
  END IF;
  RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION memory_jobs_submit(
  p_queue text, p_tenant_id text, p_user_id text, p_group_key text, p_key text, p_payload jsonb,
  p_max_attempts integer, p_debounce_ms float8, p_max_wait_ms float8, p_now timestamptz,
  p_channel text, p_merge text
) RETURNS bigint
LANGUAGE plpgsql SECURITY INVOKER AS $$
DECLARE
  v_id bigint;
BEGIN
  IF row_security_active('memory_jobs_inbox') AND memory_rls_is_user(p_tenant_id, p_user_id) IS NOT TRUE AND NOT memory_rls_is_worker() THEN
    RAISE EXCEPTION 'memory_jobs_submit: the job''s tenant and user are not the scope of this transaction'
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'set langgraph_memory.tenant_id and langgraph_memory.user_id to the job''s tenant and user for the transaction (set_config(name, value, true))';
  END IF;
  INSERT INTO memory_jobs_inbox (queue, tenant_id, user_id, group_key, idempotency_key, payload, merge, max_attempts,
    debounce_ms, max_wait_ms, enqueued_at)
  VALUES (p_queue, p_tenant_id, p_user_id, p_group_key, p_key, p_payload, p_merge, p_max_attempts,
    p_debounce_ms, p_max_wait_ms, COALESCE(p_now, now()))
  RETURNING id INTO v_id;
  IF p_channel IS NOT NULL THEN
    PERFORM pg_notify(p_channel, json_build_object('queue', p_queue, 'dueInMs', round(p_debounce_ms))::text);
  END IF;
  RETURN v_id;
END
$$;
