/** The retention sweep (docs/operations.md). */
export { RetentionSweep, type RetentionSweepOptions, type RetentionRunOptions, type RetentionSummary, type RetentionRunRecord } from "./retention-sweep.js";
