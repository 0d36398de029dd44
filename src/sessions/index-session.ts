import { invalidInput } from "../errors.js";
import { parseScope } from "../core/scope.js";
import { checkIdText } from "../core/well-formed-text.js";
import type { SessionSummary } from "../state/types.js";
import type { MemoryRepository } from "../store/memory-store.js";
import type { Memory } from "../store/types.js";
import type { TokenEncoding } from "../tokens/count-text.js";
import { requireThreadOwner } from "../threads/thread-owner.js";
import { sessionDocument } from "./session-document.js";
import { sessionMemoryId } from "./session-memory-id.js";
import { dropWithdrawn, isEmptyWithdrawal, mergeWithdrawals, recordWithdrawal, storedWithdrawal, withdrawalOf, type WithdrawnStatement } from "./withdrawal.js";
import { SESSION_METADATA_KEY, sessionInfoOf, type SessionInfo } from "./session-metadata.js";

const DAY_MS = 86_400_000;

/** A user of a tenant: past sessions are always a user's own. */
export interface SessionScope {
  tenantId: string;
  userId: string;
}

/** The summary of one thread to index, and what is known about the thread. */
export interface IndexSessionInput {
  threadId: string;
  summary: Pick<SessionSummary, "text" | "entities" | "coversThroughMessageId"> & { updatedAt?: string };
  /** Messages this summary change folded in (added to the stored count). */
  coveredMessages?: number;
  /** Messages the summary covers in total (replaces the stored count; `indexSessionNow`). */
  totalMessages?: number;
  /** User turns of the thread, when known. */
  turns?: number;
  /** When the session started (default: when it is first indexed). */
  startedAt?: Date | string;
  /** Its newest activity (default: the summary's `updatedAt`, else now). */
  endedAt?: Date | string;
  /** Secret values seen in the thread's messages, removed wherever they reappear. */
  knownSecrets?: readonly string[];
  /** Terms whose sentences are left out (withdrawn or superseded statements); recorded as fingerprints beside those the session memory already records. */
  withdrawnTerms?: readonly string[];
  /** Whole statements withdrawn (a "forget that my landlord is greg" of the thread): their sentences are left out and recorded the same way. */
  withdrawnStatements?: readonly WithdrawnStatement[];
}

export interface IndexSessionOptions {
  /**
   * Days after its last activity a past session expires. Default `writePolicy.episodeTtlDays` of
   * the store (180, like every episode); `null` keeps sessions until deleted.
   */
  ttlDays?: number | null;
  /** Keep special-category data in the summary. Default the store's `writePolicy.allowSpecialCategory`. */
  allowSpecialCategory?: boolean;
  /** Tokens of the shown text (default `DEFAULT_SESSION_TEXT_TOKENS`, 135: three sessions fit the default budget). */
  maxTextTokens?: number;
  encoding?: TokenEncoding;
  /** Clock (tests). Default the store's clock (`store.clock`). */
  now?: () => Date;
}

/**
 * - `created` / `updated`: the thread's one session memory was written;
 * - `unchanged`: this summary is already indexed (same watermark and text);
 * - `stale`: an older summary than the one indexed (a late retry): nothing written;
 * - `superseded`: the session memory was replaced by another memory on purpose: left alone;
 * - `empty`: the summary had nothing to store.
 */
export type IndexSessionOutcome = "created" | "updated" | "unchanged" | "stale" | "superseded" | "empty";

export interface IndexSessionResult {
  outcome: IndexSessionOutcome;
  /** The thread's session memory id (deterministic: see `sessionMemoryId`). */
  memoryId: string;
  /** The stored memory after the call (null when there is none). */
  memory: Memory | null;
  /** Sensitive categories removed from this summary before storing. */
  redacted: string[];
}

/**
 * Index a thread's summary as the user's past session: one `episode` memory per thread (its id
 * derived from tenant, user and thread), updated in place when the summary changes — never one row
 * per summary version. Text = the summary prose, context = its key entities, `metadata.session` =
 * thread id, first/last activity, turns and messages covered. Secrets are redacted span by span;
 * the memory expires `ttlDays` after its last activity, so an ongoing thread keeps it alive. The
 * thread must be the scope's own (THREAD_SCOPE_MISMATCH otherwise: nothing written).
 *
 * @example
 * await indexSession(store, { tenantId: "acme", userId: "alice" }, { threadId: "t1", summary: state.summary });
 */
export async function indexSession(store: MemoryRepository, scope: SessionScope, input: IndexSessionInput, options: IndexSessionOptions = {}): Promise<IndexSessionResult> {
  const s = checkScope(scope);
  const threadId = checkThreadId(input?.threadId);
  await requireThreadOwner(store.db, threadId, s);
  const summary = input.summary;
  if (!summary || typeof summary.text !== "string" || !summary.entities) throw invalidInput("summary", "must be a summary { text, entities, coversThroughMessageId }");
  const now = options.now?.() ?? store.clock.now();
  const ttlDays = options.ttlDays === undefined ? store.writePolicy.episodeTtlDays : options.ttlDays;
  if (ttlDays !== null && !(typeof ttlDays === "number" && ttlDays > 0)) throw invalidInput("ttlDays", "must be a positive number of days or null (never expire)");
  const memoryId = sessionMemoryId(s, threadId);

  let doc = sessionDocument(summary, {
    maxTextChars: store.writePolicy.maxTextChars,
    maxTextTokens: options.maxTextTokens,
    encoding: options.encoding,
    allowSpecialCategory: options.allowSpecialCategory ?? store.writePolicy.allowSpecialCategory,
    knownSecrets: input.knownSecrets,
  });

  const baseDoc = doc;
  for (let attempt = 0; ; attempt++) {
    const existing = await store.get(s, memoryId);
    if (existing?.supersededBy) return { outcome: "superseded", memoryId, memory: existing, redacted: [] };
    const prev = existing ? sessionInfoOf(existing.metadata) : null;
    // Statements withdrawn since (superseded, forgotten) stay out of every new version of the session.
    const fresh = withdrawalOf(input.withdrawnStatements ?? [], input.withdrawnTerms ?? []);
    const withdrawn = mergeWithdrawals(storedWithdrawal(existing?.metadata), fresh);
    doc = isEmptyWithdrawal(withdrawn) ? baseDoc : { ...baseDoc, text: dropWithdrawn(baseDoc.text, withdrawn), context: baseDoc.context === null ? null : dropWithdrawn(baseDoc.context, withdrawn) || null };
    if (!doc.text) return { outcome: "empty", memoryId, memory: existing, redacted: doc.redacted };
    const summaryUpdatedAt = summary.updatedAt ? isoDate(summary.updatedAt, "summary.updatedAt") : null;
    if (prev?.summaryUpdatedAt && summaryUpdatedAt && summaryUpdatedAt < prev.summaryUpdatedAt) {
      return { outcome: "stale", memoryId, memory: existing, redacted: doc.redacted };
    }
    const sameWatermark = prev !== null && prev.coversThroughMessageId === (summary.coversThroughMessageId ?? null);
    const active = existing !== null && (existing.expiresAt === null || existing.expiresAt > now);
    if (
      existing &&
      prev &&
      active &&
      sameWatermark &&
      existing.text === doc.text &&
      (existing.context ?? null) === doc.context &&
      (input.turns === undefined || input.turns === prev.turns) &&
      (input.endedAt === undefined || isoDate(input.endedAt, "endedAt") <= prev.lastAt)
    ) {
      return { outcome: "unchanged", memoryId, memory: existing, redacted: doc.redacted };
    }

    const lastCandidate = input.endedAt !== undefined ? isoDate(input.endedAt, "endedAt") : (summaryUpdatedAt ?? now.toISOString());
    const lastAt = prev && prev.lastAt > lastCandidate ? prev.lastAt : lastCandidate;
    const info: SessionInfo = {
      threadId,
      firstAt: prev?.firstAt ?? (input.startedAt !== undefined ? isoDate(input.startedAt, "startedAt") : now.toISOString()),
      lastAt,
      turns: input.turns ?? prev?.turns ?? null,
      // The same watermark again (a re-run, a retry) covers no new messages.
      messages: input.totalMessages ?? (prev?.messages ?? 0) + (sameWatermark ? 0 : Math.max(0, input.coveredMessages ?? 0)),
      versions: (prev?.versions ?? 0) + 1,
      coversThroughMessageId: summary.coversThroughMessageId ?? null,
      summaryUpdatedAt,
      redacted: doc.redacted,
    };
    const expiresAt = ttlDays === null ? null : new Date(Date.parse(lastAt) + ttlDays * DAY_MS);
    const base = { ...(existing?.metadata ?? {}), [SESSION_METADATA_KEY]: info };
    const metadata = isEmptyWithdrawal(withdrawn) ? base : recordWithdrawal(base, fresh);

    if (existing) {
      const memory = await store.update(s, memoryId, { kind: "episode", text: doc.text, context: doc.context, expiresAt, metadata });
      return { outcome: "updated", memoryId, memory, redacted: doc.redacted };
    }
    try {
      const memory = await store.add(s, {
        id: memoryId,
        kind: "episode",
        text: doc.text,
        context: doc.context,
        source: { threadId, messageId: summary.coversThroughMessageId ?? null, origin: "extracted" },
        expiresAt,
        metadata,
      });
      return { outcome: "created", memoryId, memory, redacted: doc.redacted };
    } catch (err) {
      // Another indexer created the row between our read and insert (primary key): update it instead.
      if (attempt === 0 && (await store.get(s, memoryId))) continue;
      throw err;
    }
  }
}

export function checkScope(scope: unknown): SessionScope {
  return parseScope(scope);
}

export function checkThreadId(threadId: unknown): string {
  if (typeof threadId !== "string" || threadId === "" || threadId.length > 1024 || threadId.includes("\0")) {
    throw invalidInput("threadId", "must be a non-empty string of at most 1024 characters (config.configurable.thread_id)");
  }
  return checkIdText(threadId, "threadId");
}

function isoDate(value: Date | string, field: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) throw invalidInput(field, "must be a Date or an ISO date string");
  return d.toISOString();
}
