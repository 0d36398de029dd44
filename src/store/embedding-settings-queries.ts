/** The statements of the embedder record (table `embedding_settings`: one row per vector set). */

export const SELECT_EMBEDDING_SETTING_SQL = "SELECT embedder, dims FROM embedding_settings WHERE vector_set = $1";

/** Read FOR SHARE: writers never wait for each other but do wait for a running `reembed`. */
export const SELECT_EMBEDDING_SETTING_FOR_SHARE_SQL = "SELECT embedder, dims FROM embedding_settings WHERE vector_set = $1 FOR SHARE";

/** Record the first embedder of a vector set (a concurrent first writer's record wins). */
export const INSERT_EMBEDDING_SETTING_SQL =
  "INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ($1, $2, $3) ON CONFLICT (vector_set) DO NOTHING";

/** Overwrite the record (by `reembed`, once every vector is rewritten). */
export const UPSERT_EMBEDDING_SETTING_SQL = `INSERT INTO embedding_settings (vector_set, embedder, dims) VALUES ($1, $2, $3)
     ON CONFLICT (vector_set) DO UPDATE SET embedder = excluded.embedder, dims = excluded.dims, updated_at = now()`;
