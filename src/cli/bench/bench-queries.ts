/** Statements several benchmarks share. */

/** The floor: one round trip that does nothing (its p50 is the machine's speed in a run; tables label it by this text). */
export const PING_SQL = "SELECT 1";
