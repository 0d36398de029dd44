-- Background jobs (DESIGN §2, §4): a durable queue for work that must not run on the response path
-- (memory extraction). Claimed with FOR UPDATE SKIP LOCKED; see docs/jobs.md for why this is not
-- pg-boss and for the life of a job.

CREATE TABLE memory_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue text NOT NULL CHECK (queue <> ''),
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  -- What a burst merges on (e.g. the thread id): at most one pending job per group (index below).
  group_key text NOT NULL CHECK (group_key <> ''),
  -- The newest idempotency key merged into this job (e.g. 'thread:lastMessageId'), and all of them.
  -- While the job is pending, running or done, enqueueing any of its keys again is a no-op.
  idempotency_key text NOT NULL CHECK (idempotency_key <> ''),
  merged_keys text[] NOT NULL,
  -- May hold user text: never copied into last_error_message or logs.
  payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
  -- How a later enqueue (or a retry absorbing a newer pending job) merges payloads (src/jobs/merge-strategies.ts).
  merge text NOT NULL DEFAULT 'append' CHECK (merge IN ('append', 'replace', 'keep')),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 100),
  -- Database clock (or the injected clock of tests): pending jobs are due from run_after on.
  run_after timestamptz NOT NULL DEFAULT now(),
  -- The lease of a running job: who holds it and until when. An expired lease is claimable again.
  locked_by text,
  locked_until timestamptz,
  -- An error code and a short, payload-free message (src/jobs/error-summary.ts).
  last_error_code text,
  last_error_message text CHECK (length(last_error_message) <= 300),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  CONSTRAINT memory_jobs_lease CHECK ((state = 'running') = (locked_by IS NOT NULL AND locked_until IS NOT NULL)),
  CONSTRAINT memory_jobs_finished CHECK ((state IN ('done', 'failed')) = (finished_at IS NOT NULL))
);

-- Scope leads every index the response path uses. The pending-group index is what a burst of
-- enqueues conflicts on (ON CONFLICT … DO UPDATE merges into the pending job).
CREATE UNIQUE INDEX memory_jobs_pending_group ON memory_jobs (tenant_id, user_id, queue, group_key) WHERE state = 'pending';
CREATE INDEX memory_jobs_group ON memory_jobs (tenant_id, user_id, queue, group_key, state);
CREATE INDEX memory_jobs_idempotency ON memory_jobs (tenant_id, user_id, queue, idempotency_key);

-- The worker serves every tenant, so its two indexes cannot lead with scope: due pending jobs in
-- order, and running jobs by lease expiry (a dead worker's job is claimable again).
CREATE INDEX memory_jobs_due ON memory_jobs (queue, run_after, id) WHERE state = 'pending';
CREATE INDEX memory_jobs_leases ON memory_jobs (queue, locked_until) WHERE state = 'running';

-- Retention (purgeFinished).
CREATE INDEX memory_jobs_finished_at ON memory_jobs (finished_at) WHERE state IN ('done', 'failed');

-- How two payloads of one group combine (src/jobs/merge-strategies.ts documents the names):
-- append concatenates arrays present on both sides (older first) and keeps the newer value of
-- every other key; replace keeps the newer payload; keep keeps the older one. A null payload
-- counts as {} for append. PL/pgSQL rather than one SQL statement over jsonb_each(older) FULL JOIN
-- jsonb_each(newer): every merge of a burst runs it on the pending job's whole payload, and
-- `older || newer` plus one jsonb_set per shared array key skips the join and the aggregate over
-- every key (enqueue -0.05 ms on PGlite, scratch micro benchmark of a thread growing 12 turns).
CREATE FUNCTION memory_jobs_merge(strategy text, older jsonb, newer jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  merged jsonb;
  k text;
  v jsonb;
BEGIN
  IF strategy = 'replace' THEN RETURN newer; END IF;
  IF strategy = 'keep' THEN RETURN older; END IF;
  older := COALESCE(older, '{}'::jsonb);
  newer := COALESCE(newer, '{}'::jsonb);
  IF jsonb_typeof(older) <> 'object' OR jsonb_typeof(newer) <> 'object' THEN
    RAISE EXCEPTION 'memory_jobs_merge: payloads must be JSON objects (got % and %)', jsonb_typeof(older), jsonb_typeof(newer)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  merged := older || newer; -- keys of both, the newer value winning
  FOR k, v IN SELECT e.key, e.value FROM jsonb_each(newer) e LOOP
    IF jsonb_typeof(v) = 'array' AND jsonb_typeof(older -> k) = 'array' THEN
      merged := jsonb_set(merged, ARRAY[k], (older -> k) || v);
    END IF;
  END LOOP;
  RETURN merged;
END
$$;

-- Enqueue (src/jobs/job-queries.ts calls it; one round trip on the response path). A PL/pgSQL
-- function because its statements are planned once per session: PGlite has no prepared
-- statements, and the same logic as one CTE statement, planned at every call, was 2.5x slower
-- there (docs/jobs.md). Returns no row when skipped.
-- - skipped: a queued, running or done job of the group already carries the key, or a running or
--   done job of the queue has it as its newest key;
-- - inserted: the group has no pending job;
-- - merged: ON CONFLICT on memory_jobs_pending_group folds the payload into the pending job, records
--   the key, and moves run_after to now + debounce, never past created_at + max wait (a steady
--   stream of turns must not postpone a job forever); a job waiting for a retry keeps its backoff.
-- A fresh insert NOTIFYs p_channel (when given) with {queue, dueInMs} so listening workers wake.
CREATE FUNCTION memory_jobs_enqueue(
  p_queue text, p_tenant_id text, p_user_id text, p_group_key text, p_key text, p_payload jsonb,
  p_max_attempts integer, p_debounce_ms float8, p_max_wait_ms float8, p_now timestamptz,
  p_channel text, p_merge text
) RETURNS TABLE (job_id bigint, job_run_after timestamptz, inserted boolean, due_in_ms float8)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := COALESCE(p_now, now());
BEGIN
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

-- The response path's inbox (JobQueue.submit, used by the schedule_extraction node): one plain
-- insert per turn. Folding it into memory_jobs (the idempotency check, the merge into the group's
-- pending job, the debounce) happens off the response path, before every claim
-- (memory_jobs_fold_inbox), exactly as memory_jobs_enqueue would have decided at enqueued_at.
-- Measured on PGlite: merging on the response path cost 1.0 ms of WASM per turn, this insert
-- 0.3 ms (docs/jobs.md). The checks are memory_jobs' own, so a row that got in always folds.
CREATE TABLE memory_jobs_inbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue text NOT NULL CHECK (queue <> ''),
  tenant_id text NOT NULL CHECK (tenant_id <> ''),
  user_id text NOT NULL CHECK (user_id <> ''),
  group_key text NOT NULL CHECK (group_key <> ''),
  idempotency_key text NOT NULL CHECK (idempotency_key <> ''),
  -- May hold user text, as memory_jobs.payload does.
  payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object'),
  merge text NOT NULL CHECK (merge IN ('append', 'replace', 'keep')),
  max_attempts integer NOT NULL CHECK (max_attempts BETWEEN 1 AND 100),
  debounce_ms float8 NOT NULL CHECK (debounce_ms >= 0),
  max_wait_ms float8 NOT NULL CHECK (max_wait_ms >= debounce_ms),
  -- The queue's clock at submit: the fold enqueues as of this time.
  enqueued_at timestamptz NOT NULL
);
-- Erasure and opt-out delete a user's rows.
CREATE INDEX memory_jobs_inbox_scope ON memory_jobs_inbox (tenant_id, user_id);

-- Submit (src/jobs/job-queries.ts calls it): the insert, and a NOTIFY to p_channel (when given)
-- with {queue, dueInMs} so listening workers fold and claim when the debounce ends.
CREATE FUNCTION memory_jobs_submit(
  p_queue text, p_tenant_id text, p_user_id text, p_group_key text, p_key text, p_payload jsonb,
  p_max_attempts integer, p_debounce_ms float8, p_max_wait_ms float8, p_now timestamptz,
  p_channel text, p_merge text
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
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

-- Fold up to p_limit inbox rows into memory_jobs, oldest first, through memory_jobs_enqueue as of
-- each row's enqueued_at, and delete them; returns how many. One folder at a time per schema (a
-- transaction-level advisory lock; a second folder waits, then finds the rows gone), so a
-- group's rows are folded in the order they were submitted: a thread's turns are sequential, so
-- their ids are in that order. The rows are locked FOR UPDATE: an erasure deleting a user's inbox
-- waits for the fold and then deletes the jobs it made.
CREATE FUNCTION memory_jobs_fold_inbox(p_channel text, p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  r memory_jobs_inbox;
  ids bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('memory_jobs_fold_inbox:' || current_schema(), 0));
  SELECT array_agg(i.id ORDER BY i.id) INTO ids
  FROM (SELECT b.id FROM memory_jobs_inbox b ORDER BY b.id LIMIT p_limit FOR UPDATE) i;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  FOR r IN SELECT * FROM memory_jobs_inbox b WHERE b.id = ANY (ids) ORDER BY b.id LOOP
    PERFORM memory_jobs_enqueue(r.queue, r.tenant_id, r.user_id, r.group_key, r.idempotency_key, r.payload,
      r.max_attempts, r.debounce_ms, r.max_wait_ms, r.enqueued_at, p_channel, r.merge);
  END LOOP;
  DELETE FROM memory_jobs_inbox b WHERE b.id = ANY (ids);
  RETURN cardinality(ids);
END
$$;
