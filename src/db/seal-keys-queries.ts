/** The statements of the seal keys (rows of migration 0008's `memory_seal_keys`; `$1`: the purpose). */

export const READ_SEAL_KEY_SQL = "SELECT key FROM memory_seal_keys WHERE purpose = $1";

// The migration made one; an operator who deleted it gets a new one (earlier seals then fail: the
// summaries they sealed are rebuilt from the messages).
export const ADD_SEAL_KEY_SQL = "INSERT INTO memory_seal_keys (purpose, key) VALUES ($1, $2) ON CONFLICT (purpose) DO NOTHING";
