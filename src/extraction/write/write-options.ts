import type { WritePolicyConfig } from "../../config.js";
import type { MemoryRepository } from "../../store/memory-store.js";
import type { ExtractionSource, MemoryCandidate } from "../../core/candidate.js";
import type { ChangeSource } from "../../core/change-source.js";
import type { UserScope } from "../../core/scope.js";
import type { ControlsTarget } from "../../controls/controls-target.js";
import type { SettingsTarget } from "../../controls/settings-target.js";
import type { RuleTarget } from "../../procedural/rule-target.js";
import type { ProfileTarget } from "../../profile/profile-target.js";
import type { ProfileFieldMapping } from "./profile-fields.js";

/** Where writes go besides the memory table. Each is optional: without one, its part is skipped (see docs/extraction.md). */
export interface WriteTargets {
  /** Profile fields (name, timezone, units, …) are written here instead of as memories. */
  profile?: ProfileTarget;
  /** Procedures become proposed rules here (without it they are stored as `procedure` memories). */
  rules?: RuleTarget;
  /** Opted-out users get no reads and no writes. */
  settings?: SettingsTarget;
  /** Deletions with an audit row, and the confirmed delete-all for "forget everything". */
  controls?: ControlsTarget;
}

/** The write path's dependencies: the store and the optional targets. */
export interface MemoryWriteOptions {
  store: MemoryRepository;
  targets?: WriteTargets;
  /** Write-policy settings (default: the store's `writePolicy`). */
  policy?: Partial<WritePolicyConfig>;
  /** Subject → profile field mappings (default `DEFAULT_PROFILE_FIELDS`). */
  profileFields?: readonly ProfileFieldMapping[];
  /** Clock for `expires_at` and last-seen times (tests). Default the store's clock (`store.clock`). */
  now?: () => Date;
}

/** Who a write pass acts for and what caused it: recorded on every memory it writes. */
export interface WriteAttribution {
  scope: UserScope;
  threadId?: string | null;
  /** The run that produced the messages (when one run id covers them all). */
  runId?: string | null;
  /** Run id per source message (a merged job spans several runs); wins over `runId`. */
  runIdOf?: (messageId: string) => string | null | undefined;
  /** What wrote it: extraction (node or job), an agent's tool call, an import. */
  writer: ChangeSource["kind"];
  /** The background job, when one ran the pass. */
  jobId?: number | null;
}

/** Options of {@link writeCandidates}. */
export interface WriteCandidatesOptions extends MemoryWriteOptions, WriteAttribution {
  /** The trusted sources the candidates came from: the policy then checks their attribution and paraphrased secrets. */
  sources?: readonly ExtractionSource[];
  /** Creation time of a candidate's memory (imports keep the original time). Default now. */
  createdAtOf?: (candidate: MemoryCandidate) => Date | undefined;
  /** The caller already checked the opt-out for this pass (saves a round trip). */
  optOutChecked?: boolean;
  /**
   * Called once the pass holds the user's write lock, before it writes: throw to write nothing.
   * The job handler checks its lease here — a forget since the job was claimed takes the lease, and
   * the job then runs again with the forgotten sentences gone from its payload.
   */
  beforeWrite?: () => Promise<void>;
}
