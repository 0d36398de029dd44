/**
 * The `["memories", tenant, user]` namespace of the BaseStore door: the items there are the rows
 * of the memory table (what extraction, tools and controls read and write), not `store_items`.
 * This module maps between the two shapes; `memory-items.ts` runs the operations.
 */
import { createHash } from "node:crypto";
import type { Item } from "@langchain/langgraph-checkpoint";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import { isPlainObject } from "../core/json.js";
import { readScopeId, type UserScope } from "../core/scope.js";
import type { Memory, MemoryOrigin, MemorySource, NewMemory, MemoryPatch } from "./types.js";
import type { MemoryKind } from "../state/types.js";

/** The first label of the namespace whose items are the memory table's rows. */
export const MEMORIES_NAMESPACE = "memories";

/** The metadata field that keeps the key an item was put under when it is not the memory's id. */
export const STORE_KEY_FIELD = "storeKey";

/**
 * A memory as a BaseStore item value. `text` is required on put; the rest default as
 * `MemoryRepository.add` defaults them (`kind` "fact"). `source` is kept from the first put.
 */
export interface MemoryItemValue {
  text: string;
  kind: MemoryKind;
  context: string | null;
  confidence: number;
  origin: MemoryOrigin;
  source: { threadId: string | null; messageId: string | null; runId: string | null };
  metadata: Record<string, unknown>;
  expiresAt: string | null;
}

const VALUE_FIELDS = ["text", "kind", "context", "confidence", "origin", "source", "metadata", "expiresAt"];

/** Whether a namespace (or search prefix) addresses the memory table. */
export function isMemoriesNamespace(namespace: readonly string[]): boolean {
  return namespace[0] === MEMORIES_NAMESPACE;
}

/**
 * The user a `["memories", tenant, user]` namespace names. Anything shorter is SCOPE_REQUIRED (a
 * search of `["memories"]` or `["memories", tenant]` would span users), anything longer
 * INVALID_INPUT: memories have no sub-namespaces.
 */
export function memoryScopeOf(namespace: readonly string[], field: string): UserScope {
  if (namespace.length < 3) {
    throw new MemoryError(
      ErrorCodes.SCOPE_REQUIRED,
      `${field}: the memories namespace is ["memories", tenantId, userId]; ${JSON.stringify(namespace)} names no ${namespace.length < 2 ? "tenant and user" : "user"}, and memories are never read across users`,
      { details: { missing: namespace.length < 2 ? ["tenantId", "userId"] : ["userId"] } },
    );
  }
  if (namespace.length > 3) throw invalidInput(field, `the memories namespace is exactly ["memories", tenantId, userId] (no deeper labels), got ${namespace.length} labels`);
  const tenantId = readScopeId(namespace[1], `${field}[1] (tenantId)`);
  const userId = readScopeId(namespace[2], `${field}[2] (userId)`);
  if (tenantId === null || userId === null) throw new MemoryError(ErrorCodes.SCOPE_REQUIRED, `${field}: tenant and user labels must not be blank`);
  return { tenantId, userId };
}

/**
 * The memory id a key maps to for this user: the key itself when it is one of the user's memory
 * ids (what extraction wrote), else a uuid derived from the user and the key — so a key never
 * reaches another user's row, and the same key is the same memory on every put.
 */
export function derivedMemoryId(scope: UserScope, key: string): string {
  const bytes = createHash("sha256").update(`langgraph-memory:store-key\0${scope.tenantId}\0${scope.userId}\0${key}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids a key may be stored under, the key itself (when a uuid) first. */
export function candidateIds(scope: UserScope, key: string): string[] {
  const derived = derivedMemoryId(scope, key);
  return UUID_RE.test(key) ? [key.toLowerCase(), derived] : [derived];
}

/** A memory row as a BaseStore item under `["memories", tenant, user]`. */
export function itemOfMemory(m: Memory): Item {
  const { [STORE_KEY_FIELD]: storeKey, ...metadata } = m.metadata;
  const value: MemoryItemValue = {
    text: m.text,
    kind: m.kind,
    context: m.context,
    confidence: m.confidence,
    origin: m.source.origin,
    source: { threadId: m.source.threadId, messageId: m.source.messageId, runId: m.source.runId },
    metadata,
    expiresAt: m.expiresAt?.toISOString() ?? null,
  };
  return {
    namespace: [MEMORIES_NAMESPACE, m.tenantId!, m.userId!],
    key: typeof storeKey === "string" ? storeKey : m.id,
    value: value as unknown as Record<string, unknown>,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/**
 * A put's value checked for the memory table's fields (INVALID_INPUT naming an unknown field: a
 * free-form item belongs under another namespace). The repository checks the contents.
 */
export function checkMemoryValue(value: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidInput(field, "must be a plain object with at least `text` (or null to delete)");
  const unknown = Object.keys(value).filter((k) => !VALUE_FIELDS.includes(k));
  if (unknown.length > 0) {
    throw invalidInput(field, `a memory item holds only ${VALUE_FIELDS.join(", ")}; ${unknown.map((k) => JSON.stringify(k)).join(", ")} ${unknown.length === 1 ? "is" : "are"} not one (put free-form items under another namespace)`);
  }
  if (typeof value.text !== "string") throw invalidInput(`${field}.text`, "is required: the memory's text as a string");
  if (value.metadata !== undefined && !isPlainObject(value.metadata)) throw invalidInput(`${field}.metadata`, "must be a plain object");
  return value;
}

/** `expiresAt` of a put: the value's own, else `ttl` minutes from `now`. */
function expiryOf(value: Record<string, unknown>, ttl: number | null | undefined, now: Date): NewMemory["expiresAt"] {
  if (value.expiresAt !== undefined) return value.expiresAt as NewMemory["expiresAt"];
  return typeof ttl === "number" ? new Date(now.getTime() + ttl * 60_000) : undefined;
}

/** A new memory from a checked put value (`storeKey` kept when the key is not the id). */
export function newMemoryOf(value: Record<string, unknown>, id: string, key: string, ttl: number | null | undefined, now: Date): NewMemory {
  const metadata = { ...((value.metadata as Record<string, unknown> | undefined) ?? {}) };
  if (key.toLowerCase() !== id) metadata[STORE_KEY_FIELD] = key;
  const source = isPlainObject(value.source) ? (value.source as MemorySource) : {};
  return {
    id,
    kind: (value.kind ?? "fact") as MemoryKind,
    text: value.text as string,
    context: value.context as string | null | undefined,
    confidence: value.confidence as number | undefined,
    source: { threadId: source.threadId, messageId: source.messageId, runId: source.runId, origin: value.origin as MemoryOrigin | undefined },
    metadata,
    expiresAt: expiryOf(value, ttl, now),
  };
}

/** The patch a put makes to an existing memory (`source` stays as first written). */
export function patchOf(value: Record<string, unknown>, current: Memory, ttl: number | null | undefined, now: Date): MemoryPatch {
  const storeKey = current.metadata[STORE_KEY_FIELD];
  const metadata = value.metadata === undefined ? undefined : { ...(value.metadata as Record<string, unknown>), ...(storeKey === undefined ? {} : { [STORE_KEY_FIELD]: storeKey }) };
  return {
    text: value.text as string,
    kind: value.kind as MemoryKind | undefined,
    context: value.context as string | null | undefined,
    confidence: value.confidence as number | undefined,
    origin: value.origin as MemoryOrigin | undefined,
    metadata,
    expiresAt: expiryOf(value, ttl, now),
  };
}
