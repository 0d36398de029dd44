/**
 * The ids an import gives its items. An export may come from anywhere, and some ids are derived
 * from the user they belong to (a thread's past-session memory, an extracted memory's
 * deterministic id), so anyone who knows a user and a thread can compute them. Had an import kept
 * the ids it was given, one user could plant a row at another user's future id (whose writer then
 * failed on the primary key at every turn), and "skipped" would tell them which of another user's
 * ids exist.
 *
 * So each imported item gets an id of the importing user's own: the exported id when that user
 * already has it (a repeated import skips it), a thread's session id for that user when the item
 * is a past session (re-indexing the thread then updates it in place), else a name-based uuid of
 * the user and the exported id — the same document imported again maps to the same ids and is
 * skipped. Supersede links are mapped the same way. Only the importing user's rows are read.
 */
import { createHash } from "node:crypto";
import type { Queryable } from "../db/database.js";
import type { UserScope } from "../core/scope.js";
import { sessionMemoryId } from "../sessions/session-memory-id.js";
import { sessionInfoOf } from "../sessions/session-metadata.js";
import type { UserExport } from "./user-export.js";
import { OWN_MEMORY_IDS_SQL, OWN_PROFILE_HISTORY_IDS_SQL, OWN_RULE_IDS_SQL } from "./import-ids-queries.js";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id an exported item gets when imported for `scope` (uuid v5 layout, SHA-256 of the kind of
 * item, tenant, user and exported id). Pure.
 *
 * @example
 * importedItemId({ tenantId: "acme", userId: "alice" }, "memory", "0b6e…") // always the same uuid for these
 */
export function importedItemId(scope: UserScope, kind: "memory" | "rule" | "profile_history", exportedId: string): string {
  const bytes = createHash("sha256").update(`langgraph-memory:import\0${kind}\0${scope.tenantId}\0${scope.userId}\0${exportedId.toLowerCase()}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `doc` with the ids (and supersede links) its items get when imported for `s`, read inside the
 * import's transaction. Ids that are not uuids are left as they are, for validation to refuse.
 */
export async function withImportedIds(tx: Queryable, s: UserScope, doc: UserExport): Promise<UserExport> {
  const memoryIds = doc.memories.flatMap((m) => [m.id, m.supersededBy]);
  const ownMemories = await ownIds(tx, OWN_MEMORY_IDS_SQL, s, memoryIds);
  const sessionThreads = new Map<string, string>();
  for (const m of doc.memories) {
    const info = m && typeof m === "object" && typeof m.id === "string" && m.metadata && typeof m.metadata === "object" ? sessionInfoOf(m.metadata) : null;
    if (info && m.kind === "episode") sessionThreads.set(m.id.toLowerCase(), info.threadId);
  }
  const memoryId = (id: unknown) => {
    if (typeof id !== "string" || !UUID_RE.test(id)) return id;
    const key = id.toLowerCase();
    if (ownMemories.has(key)) return key;
    const thread = sessionThreads.get(key);
    return thread !== undefined ? sessionMemoryId(s, thread) : importedItemId(s, "memory", key);
  };

  const ownRules = await ownIds(tx, OWN_RULE_IDS_SQL, s, doc.rules.map((r) => r?.id));
  const history = doc.profile && Array.isArray(doc.profile.history) ? doc.profile.history : [];
  const ownHistory = await ownIds(tx, OWN_PROFILE_HISTORY_IDS_SQL, s, history.map((h) => h?.id));
  const mapped = (own: Set<string>, kind: "rule" | "profile_history") => (id: unknown) =>
    typeof id !== "string" || !UUID_RE.test(id) ? id : own.has(id.toLowerCase()) ? id.toLowerCase() : importedItemId(s, kind, id);
  const ruleId = mapped(ownRules, "rule");
  const historyId = mapped(ownHistory, "profile_history");

  return {
    ...doc,
    memories: doc.memories.map((m) => (m && typeof m === "object" ? { ...m, id: memoryId(m.id) as string, supersededBy: m.supersededBy == null ? m.supersededBy : (memoryId(m.supersededBy) as string) } : m)),
    rules: doc.rules.map((r) => (r && typeof r === "object" ? { ...r, id: ruleId(r.id) as string } : r)),
    profile: doc.profile && Array.isArray(doc.profile.history) ? { ...doc.profile, history: history.map((h) => (h && typeof h === "object" ? { ...h, id: historyId(h.id) as string } : h)) } : doc.profile,
  };
}

/** Which of `ids` (the uuids among them) the user already has, by one statement; lower-case. */
async function ownIds(tx: Queryable, sql: string, s: UserScope, ids: readonly unknown[]): Promise<Set<string>> {
  const uuids = [...new Set(ids.filter((id): id is string => typeof id === "string" && UUID_RE.test(id)).map((id) => id.toLowerCase()))];
  if (uuids.length === 0) return new Set();
  const { rows } = await tx.query<{ id: string }>(sql, [s.tenantId, s.userId, uuids]);
  return new Set(rows.map((r) => r.id.toLowerCase()));
}
