/** The statements of `reembed`: it rewrites every memory's vector in one transaction. */

/** A placeholder embedder record (dims 1), so there is a row to lock when none exists yet. */
export const INSERT_PLACEHOLDER_EMBEDDING_SETTING_SQL =
  "INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ($1, $2, 1) ON CONFLICT (vector_set) DO NOTHING";

/** Hold the embedder record until commit: writers (which read it FOR SHARE) wait for the reembed. */
export const LOCK_EMBEDDING_SETTING_SQL = "SELECT 1 FROM embedding_settings WHERE vector_set = $1 FOR UPDATE";

/** Every memory, all scopes, superseded and expired included. */
export const COUNT_ALL_MEMORIES_SQL = "SELECT count(*)::int AS n FROM memories";

/** The next batch of memories after id `$1` (NULL: from the start), in id order, at most `$2`. */
export const MEMORIES_TO_REEMBED_SQL = "SELECT id, text, context FROM memories WHERE ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2";

/** Write a batch of vectors: `$1` the ids, `$2` their vector literals, position by position. */
export const UPDATE_MEMORY_EMBEDDINGS_SQL =
  "UPDATE memories m SET embedding = u.e::real[] FROM unnest($1::uuid[], $2::text[]) AS u(id, e) WHERE m.id = u.id";
