import { z } from "zod";
import { invalidInput } from "../errors.js";
import type { ExportedMemory } from "../store/types.js";
import type { ExportedProfile } from "../profile/profile-store.js";
import type { ExportedRule } from "../procedural/rule-types.js";
import type { ExportedSettings } from "./settings-store.js";
import type { ExportedThread } from "./thread-export.js";
import type { ExportedStoreItem } from "../store/store-item-queries.js";

export const USER_EXPORT_FORMAT = "langgraph-memory/user-export";
export const USER_EXPORT_VERSION = 1;

/**
 * Everything stored about one user, as JSON: memories (superseded, expired and deactivated ones
 * included, so the supersede chains are whole), the profile with its change history, the user's
 * own rules (every review state), settings, the LangGraph `BaseStore` items the user's store wrote
 * (`storeItems`), and the conversation threads delete-all removes (`threads`); both fields were
 * added within version 1: an export without them is still read. No embeddings (they are
 * recomputed on import).
 */
export interface UserExport {
  format: typeof USER_EXPORT_FORMAT;
  version: typeof USER_EXPORT_VERSION;
  exportedAt: string;
  tenantId: string;
  userId: string;
  memories: ExportedMemory[];
  profile: ExportedProfile | null;
  rules: ExportedRule[];
  settings: ExportedSettings | null;
  /**
   * The user's conversation threads with their messages (see `ExportedThread`). Absent in exports
   * written before threads were exported, and when the controls leave threads alone
   * (`threads: false`). Import reads past it: conversations are the app's graph state, restored by
   * the app, not by the memory import.
   */
  threads?: ExportedThread[];
  /** BaseStore items of the user (`LangGraphStore.forScope` / `forConfig`); absent in older exports. */
  storeItems?: ExportedStoreItem[];
}

// The envelope only: items are validated field by field by the store that imports them.
const ExportEnvelope = z.object({
  format: z.literal(USER_EXPORT_FORMAT),
  version: z.literal(USER_EXPORT_VERSION),
  exportedAt: z.string(),
  tenantId: z.string(),
  userId: z.string(),
  memories: z.array(z.record(z.string(), z.unknown())),
  profile: z.record(z.string(), z.unknown()).nullable(),
  rules: z.array(z.record(z.string(), z.unknown())),
  settings: z.record(z.string(), z.unknown()).nullable(),
  threads: z.array(z.object({ threadId: z.string(), messages: z.array(z.unknown()) }).passthrough()).optional(),
  storeItems: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** Check that `data` is a user export this version can read (INVALID_INPUT naming the problem). */
export function parseUserExport(data: unknown): UserExport {
  const parsed = ExportEnvelope.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw invalidInput("export", `is not a ${USER_EXPORT_FORMAT} version ${USER_EXPORT_VERSION} document — ${problems}`);
  }
  return data as UserExport;
}
