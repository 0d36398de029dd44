/** Statements several benchmarks share. */

/** The floor: one round trip that does nothing (its p50 is the machine's speed in a run; tables label it by this text). */
export const PING_SQL = "SELECT 1";

// What autovacuum does on a server after a bulk load (PGlite runs none): statistics, hint bits
// and the visibility map, so the measured searches are not the first readers of their pages.
export const VACUUM_ANALYZE_MEMORIES_SQL = "VACUUM ANALYZE memories";
