-- Checkpointer tables (see docs/checkpointer.md for the design and why).
--
-- threads             one row per conversation: owner, activity times, token counts, and the
--                     counter that numbers the thread's stored items.
-- checkpoints         one row per checkpoint: the checkpoint without its channel values, its
--                     metadata, and where each channel's value is (`vals`: references to items).
-- checkpoint_items    every stored value or array element (a message, a graph input, a large
--                     value), each stored once per thread and referred to by number.
-- checkpoint_writes   pending writes of a checkpoint's tasks, one row per task, each write a
--                     reference to items.
--
-- Key text columns use COLLATE "C": byte order of UTF-8 is code-point order, the order LangGraph
-- sorts checkpoint ids and write keys in, and ORDER BY checkpoint_id can walk the primary key.

CREATE SEQUENCE thread_epochs;

CREATE TABLE threads (
  thread_id text COLLATE "C" PRIMARY KEY,
  tenant_id text,
  user_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Tokens and count of the root namespace's messages channel at the latest put.
  message_count integer NOT NULL DEFAULT 0,
  message_tokens bigint NOT NULL DEFAULT 0,
  -- Item numbers are allocated from this counter; `epoch` changes when a thread is deleted and
  -- created again, so an in-process cache never mistakes new items for old ones.
  next_item_seq bigint NOT NULL DEFAULT 0,
  epoch bigint NOT NULL DEFAULT nextval('thread_epochs')
) WITH (fillfactor = 70); -- every put updates the row: leave room for HOT updates

-- A user's threads (deleting a user's data, listing their conversations).
CREATE INDEX threads_owner_idx ON threads (tenant_id, user_id);

CREATE TABLE checkpoints (
  thread_id text COLLATE "C" NOT NULL,
  checkpoint_ns text COLLATE "C" NOT NULL DEFAULT '',
  checkpoint_id text COLLATE "C" NOT NULL,
  parent_checkpoint_id text COLLATE "C",
  -- The checkpoint without `id` and `channel_values`, in parts (src/checkpointer/checkpoint-row.ts):
  -- `ts` when it is an ISO time that reads back the same, anything unusual in `extra`. json keeps
  -- the text as written; only a put looks inside (channel_versions of the parent).
  v smallint,
  ts timestamptz,
  channel_versions json NOT NULL,
  versions_seen json NOT NULL,
  extra json,
  -- jsonb: list() filters with @>, and a value jsonb refuses (a NUL character) fails the put.
  metadata jsonb NOT NULL DEFAULT '{}',
  -- Channel → reference to its value (see src/checkpointer/refs.ts), for every channel with a value.
  vals json NOT NULL DEFAULT '{}',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);

CREATE TABLE checkpoint_items (
  thread_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  -- The serializer's type ('json', 'bytes', …) and bytes.
  type text NOT NULL,
  blob bytea NOT NULL,
  tokens integer NOT NULL DEFAULT 0,
  PRIMARY KEY (thread_id, seq)
);

CREATE TABLE checkpoint_writes (
  thread_id text COLLATE "C" NOT NULL,
  checkpoint_ns text COLLATE "C" NOT NULL DEFAULT '',
  checkpoint_id text COLLATE "C" NOT NULL,
  task_id text COLLATE "C" NOT NULL,
  task_path text COLLATE "C" NOT NULL DEFAULT '',
  -- The task's writes, one row per task: [[idx, channel, reference], …] (references: see
  -- src/checkpointer/refs.ts).
  writes json NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)
);
