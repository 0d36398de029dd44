/** The statements of `bench retrieval --scale` (the HNSW index against an exact scan). */

/** The ANN function whose threshold the benchmark moves (`langgraph-memory.ann_min_rows`; 0: always the index). */
const ANN_FN = "memory_ann_candidate_ids(text, text, boolean, boolean, text[], timestamptz, real[], integer)";

/** Build the HNSW index for dimension `$1`. */
export const ENSURE_VECTOR_INDEX_SQL = "SELECT memory_ensure_vector_index($1)";

/** The scope's `$5` nearest by the index (`$1` tenant, `$2` user or NULL, `$3` tenant knowledge, `$4` query vector). */
export const ANN_CANDIDATE_IDS_SQL = "SELECT memory_ann_candidate_ids($1, $2, $3, false, NULL, now(), $4::real[], $5) AS ids";

/** The scope's `$4` nearest by an exact ordering of every row of the scope (`$1` tenant, `$2` user or NULL: the tenant's knowledge, `$3` query vector). */
export const EXACT_NEAREST_SQL = `SELECT m.id FROM memories m
       WHERE m.tenant_id = $1 AND (($2::text IS NULL AND m.user_id IS NULL AND m.scope = 'tenant') OR (m.user_id = $2 AND m.scope = 'user'))
       ORDER BY memory_vector_dot(m.embedding, memory_query_vector($3::real[])) DESC LIMIT $4`;

/** Below how many rows of a scope the ANN function scans exactly instead (`rows`: an integer). */
export function setAnnMinRowsSql(rows: number): string {
  return `ALTER FUNCTION ${ANN_FN} SET langgraph_memory.ann_min_rows = '${rows}'`;
}

export const RESET_ANN_MIN_ROWS_SQL = `ALTER FUNCTION ${ANN_FN} RESET langgraph_memory.ann_min_rows`;

/** Fresh statistics after the extra rows. */
export const ANALYZE_MEMORIES_SQL = "ANALYZE memories";
