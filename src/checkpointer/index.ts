export { PostgresCheckpointer, type CheckpointThread } from "./postgres-checkpointer.js";
export type { PostgresCheckpointerOptions, RetentionOptions } from "./options.js";
export { nextChannelVersion } from "./versions.js";
