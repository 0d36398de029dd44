/** The write path against the store: see docs/extraction.md ("The write path"). */
export { writeCandidates, isOptedOut } from "./write-candidates.js";
export { extractAndStore, type ExtractAndStoreOptions } from "./extract-and-store.js";
export { importJsonlFile, kindOfEntry, type ImportJsonlOptions, type ImportJsonlResult } from "./import-jsonl.js";
export type { MemoryWriteOptions, WriteAttribution, WriteCandidatesOptions, WriteTargets } from "./write-options.js";
export { emptyWriteReport, mergeWriteReports, type WriteReport } from "./write-report.js";
export { DEFAULT_PROFILE_FIELDS, profileFieldFor, type ProfileFieldMapping } from "./profile-fields.js";
export { redactSecrets, redactedCategory } from "../../sensitive/redaction.js";
export { withUserWriteLock } from "../../store/user-write-lock.js";
export { deterministicMemoryId } from "./deterministic-id.js";
export { requireUserScope } from "./write-run.js";
