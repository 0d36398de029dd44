-- Checkpointer tables (threads, checkpoints, deltas, writes). Filled in by the checkpointer work.
SELECT 1;
