-- Workers say they are alive (issue 17, "nothing fails silently"). With the default queued
-- extraction and no worker, nothing was ever extracted and nothing said so. Each job worker
-- records here its id, the queues it serves, its poll interval and when it last polled (at most
-- every few seconds, off the response path), so the memory steps can warn once when a user's jobs
-- wait past their due time with no live worker, and `langgraph-memory status` can show the last
-- heartbeat. Rows hold worker ids (host:pid:random) and queue names, no user data.

CREATE TABLE memory_workers (
  worker_id text PRIMARY KEY CHECK (worker_id <> ''),
  queues text[] NOT NULL,
  poll_interval_ms integer NOT NULL CHECK (poll_interval_ms > 0),
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- Set by a graceful stop: the worker no longer polls (its last beat stays visible).
  stopped_at timestamptz
);
-- Live workers are those seen lately; rows of workers gone for a day are removed by the next beat.
CREATE INDEX memory_workers_seen_idx ON memory_workers (last_seen_at);

-- Anyone may read who is alive; only workers (members of langgraph_memory_worker, migration 0006)
-- may say they are. On PGlite and for the owner these policies are inert (docs/operations.md).
ALTER TABLE memory_workers ENABLE ROW LEVEL SECURITY;
CREATE POLICY memory_workers_read ON memory_workers FOR SELECT USING (true);
CREATE POLICY memory_workers_write ON memory_workers FOR ALL USING ((SELECT memory_rls_is_worker())) WITH CHECK ((SELECT memory_rls_is_worker()));
