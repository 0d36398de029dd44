-- The LangGraph API's thread registry (`langgraph-memory dev`, docs/deploy.md): the metadata the
-- API keeps per thread — `graph_id` (which graph reads its state), `assistant_id` and what clients
-- set — from `POST /threads` on, before the thread has a checkpoint. The conversation itself stays
-- in the checkpointer's tables; its owner in `thread_owners`. Keyed by thread id like those
-- tables and deleted with them (deleteThread, the idle-thread sweep).
CREATE TABLE api_threads (
  thread_id text COLLATE "C" PRIMARY KEY,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_threads_updated_idx ON api_threads (updated_at);
