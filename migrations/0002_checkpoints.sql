-- Checkpointer tables (see docs/checkpointer.md for the design and why).
--
-- threads             one row per conversation: owner, activity times, token counts, and the
--                     counter that numbers the thread's stored items.
-- checkpoints         one row per checkpoint, without its channel values.
-- checkpoint_blobs    one row per (channel, version): the whole value (blob) or, for arrays, an
--                     ordered list of item ranges (items). A version without a row has no value.
-- checkpoint_items    the elements of array channels (messages), each stored once per thread;
--                     a new version of a messages channel stores only the items it adds.
-- checkpoint_writes   pending writes of a checkpoint's tasks.
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

CREATE INDEX threads_owner_idx ON threads (tenant_id, user_id);

CREATE TABLE checkpoints (
  thread_id text COLLATE "C" NOT NULL,
  checkpoint_ns text COLLATE "C" NOT NULL DEFAULT '',
  checkpoint_id text COLLATE "C" NOT NULL,
  parent_checkpoint_id text COLLATE "C",
  -- The checkpoint without `id` and `channel_values` (those live in columns and blobs).
  checkpoint jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);

CREATE TABLE checkpoint_blobs (
  thread_id text COLLATE "C" NOT NULL,
  checkpoint_ns text COLLATE "C" NOT NULL DEFAULT '',
  channel text COLLATE "C" NOT NULL,
  version text COLLATE "C" NOT NULL,
  -- The serializer's type ('json', 'bytes'), or 'items'.
  type text NOT NULL,
  blob bytea,
  -- For type 'items': [lo1, hi1, lo2, hi2, …], inclusive ranges of checkpoint_items.seq in order.
  items bigint[],
  PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
);

CREATE TABLE checkpoint_items (
  thread_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
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
  idx integer NOT NULL,
  channel text COLLATE "C" NOT NULL,
  type text NOT NULL,
  blob bytea NOT NULL,
  task_path text COLLATE "C" NOT NULL DEFAULT '',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
);
