/** The retention sweep (docs/operations.md). */
export { RetentionSweep, RETENTION_STEPS, type RetentionStep, type RetentionSweepOptions, type RetentionRunOptions, type RetentionSummary, type RetentionRunRecord } from "./retention-sweep.js";
