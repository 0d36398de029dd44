/**
 * Forgetting a fact removes it from everything of the user that quotes it, not only from the
 * memory row: deleting "User is vegetarian" by id alone would leave "I'm vegetarian and I live in
 * Porto …" in the user's past session, which would go on being injected. Given a withdrawal
 * (`withdrawal.ts`: the statements deleted, edited away or superseded), this rewrites, for one user:
 *
 * - **past sessions** — every session memory's text and context lose the sentences that state it
 *   (re-embedded; a session left empty is deleted) and record the withdrawal as fingerprints, so a
 *   later re-indexing of the thread keeps them out;
 * - **graph state of the user's threads** in this schema's checkpointer — the memory channels
 *   (`summary` with its entities, `memories`, `pastSessions`, `rules`, `profile`) of every
 *   checkpoint and pending write (`rewriteThreadChannels`). The `messages` channel — the transcript
 *   itself — is kept as it was said, until the thread is deleted;
 * - **the profile** — a field that states it goes (a text field loses the sentences); in history
 *   entries the old or new value that holds it becomes `{ "withdrawn": true }` (the entry still
 *   says who changed the field when), and an entry left with neither is deleted;
 * - **the user's own rules** that state it are deleted;
 * - **queued work** (with `jobs`) — the messages of submitted turns and of pending, running and
 *   failed jobs lose the sentences, so a job queued before cannot extract the fact again; a running
 *   job also loses its lease (its write pass checks the lease under the user's write lock and
 *   stops; the job is claimed again with the rewritten payload).
 *
 * Deletions are audited (`via`); rewrites are not (they delete nothing whole). Each part is its
 * own transaction in the user's scope, and each is idempotent: a failed call can simply be
 * repeated. Runs while the user is opted out too (forgetting is always allowed).
 */
import { JsonPlusSerializer, type SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { Database, Queryable } from "../db/database.js";
import { rewriteThreadChannels } from "../checkpointer/rewrite-channels.js";
import type { UserScope } from "../core/scope.js";
import { recordDeletion } from "../store/deletion-audit.js";
import type { MemoryRepository } from "../store/memory-store.js";
import { vectorLiteral } from "../store/memory-row.js";
import { cueOf, dropWithdrawn, isEmptyWithdrawal, recordWithdrawal, type Withdrawal } from "../sessions/withdrawal.js";
import {
  DELETE_PROFILE_HISTORY_SQL,
  REDACT_PROFILE_HISTORY_SQL,
  DELETE_RULES_SQL,
  DELETE_SESSIONS_SQL,
  PROFILE_FOR_UPDATE_SQL,
  PROFILE_HISTORY_SQL,
  UPDATE_INBOX_SQL,
  UPDATE_JOB_SQL,
  UPDATE_PROFILE_SQL,
  UPDATE_SESSION_SQL,
  USER_INBOX_SQL,
  USER_OPEN_JOBS_SQL,
  USER_RULES_SQL,
  USER_SESSIONS_SQL,
  THREADS_TABLE_SQL,
  USER_THREADS_SQL,
} from "./forget-queries.js";
import { MEMORY_TEXT_CHANNELS, jsonStatesWithdrawn, withdrawFromChannel, withdrawFromDocument, withdrawFromPayload } from "./withdraw-values.js";

export interface ForgetEverywhereOptions {
  /** The deletion audit's path label (e.g. "controls.deleteMemory"). */
  via: string;
  actor?: string | null;
  /**
   * Rewrite queued work too (default true). `{ queuedBefore }`: only work queued before that time —
   * what a supersede does (an older queued turn restating the old value would bring it back; a newer
   * one may be the user's own correction and is left to the write policy).
   */
  jobs?: boolean | { queuedBefore: Date };
  /** The job doing the forgetting (its own payload is left alone). */
  exceptJobId?: number | null;
  /** The checkpointer's serializer (default LangGraph's JsonPlusSerializer). */
  serde?: SerializerProtocol;
  /** Rewrite the graph state of the user's threads (default true; false when the app keeps no checkpoints here). */
  threads?: boolean;
  /** Profile values withdrawn (a field changed or removed): history entries holding them as old or new value are deleted. */
  profileValues?: ReadonlyArray<{ field: string; value: unknown }>;
}

/** What was rewritten or deleted, per place (counts only). */
export interface ForgetReport {
  sessionsRewritten: number;
  sessionsDeleted: number;
  threads: number;
  checkpointRows: number;
  profileFields: number;
  profileHistory: number;
  rules: number;
  inbox: number;
  jobs: number;
}

const emptyReport = (): ForgetReport => ({ sessionsRewritten: 0, sessionsDeleted: 0, threads: 0, checkpointRows: 0, profileFields: 0, profileHistory: 0, rules: 0, inbox: 0, jobs: 0 });

/**
 * Remove what `w` withdraws from every place of the user that quotes it (see the module comment).
 *
 * @example
 * const w = withdrawalOf([{ id, text: "User is vegetarian." }]);
 * await forgetEverywhere({ db, store }, alice, w, { via: "controls.deleteMemory" });
 */
export async function forgetEverywhere(deps: { db: Database; store: MemoryRepository }, scope: UserScope, w: Withdrawal, options: ForgetEverywhereOptions): Promise<ForgetReport> {
  const report = emptyReport();
  if (isEmptyWithdrawal(w) && !(options.profileValues && options.profileValues.length > 0)) return report;
  const { db, store } = deps;
  const audit = { via: options.via, actor: options.actor ?? null };
  const inScope = <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn, { scope });

  await inScope(async (tx) => {
    const { rows } = await tx.query<{ id: string; text: string; context: string | null; metadata: Record<string, unknown> | string }>(USER_SESSIONS_SQL, [scope.tenantId, scope.userId]);
    const gone: string[] = [];
    const changed: Array<{ id: string; text: string; context: string | null; metadata: Record<string, unknown> }> = [];
    for (const r of rows) {
      const metadata = typeof r.metadata === "string" ? (JSON.parse(r.metadata) as Record<string, unknown>) : r.metadata;
      const text = dropWithdrawn(r.text, w);
      const context = r.context === null ? null : dropWithdrawn(r.context, w) || null;
      if (text === r.text && context === r.context) continue;
      if (text === "") gone.push(r.id);
      else changed.push({ id: r.id, text, context, metadata: recordWithdrawal(metadata, w) });
    }
    const vectors = changed.length > 0 ? await store.vectorsFor(changed) : [];
    for (const [i, c] of changed.entries()) {
      await tx.query(UPDATE_SESSION_SQL, [scope.tenantId, scope.userId, c.id, c.text, c.context, vectorLiteral(vectors[i]), JSON.stringify(c.metadata)]);
    }
    if (gone.length > 0) {
      const { rowCount } = await tx.query(DELETE_SESSIONS_SQL, [scope.tenantId, scope.userId, gone]);
      await recordDeletion(tx, scope, "memory", rowCount, audit);
    }
    report.sessionsRewritten = changed.length;
    report.sessionsDeleted = gone.length;
  });
  if (report.sessionsRewritten + report.sessionsDeleted > 0) store.memoriesChanged({ level: "user", tenantId: scope.tenantId, userId: scope.userId });

  if (options.threads ?? true) {
    const serde = options.serde ?? new JsonPlusSerializer();
    const exists = (await db.query<{ t: string | null }>(THREADS_TABLE_SQL)).rows[0]?.t;
    const threads = exists ? (await inScope((tx) => tx.query<{ thread_id: string }>(USER_THREADS_SQL, [scope.tenantId, scope.userId]))).rows.map((r) => r.thread_id) : [];
    for (const threadId of threads) {
      const r = await inScope((tx) => rewriteThreadChannels(tx, threadId, MEMORY_TEXT_CHANNELS, (channel, value) => withdrawFromChannel(channel, value, w), serde));
      if (r.rows > 0) report.threads++;
      report.checkpointRows += r.rows;
    }
  }

  await inScope(async (tx) => {
    const profile = (await tx.query<{ document: unknown; sources: unknown }>(PROFILE_FOR_UPDATE_SQL, [scope.tenantId, scope.userId])).rows[0];
    if (profile) {
      const doc = parseJsonb(profile.document);
      const { document, removed, rewritten } = withdrawFromDocument(doc, w);
      if (removed.length + rewritten.length > 0) {
        const sources = { ...parseJsonb(profile.sources) };
        for (const field of removed) delete sources[field];
        await tx.query(UPDATE_PROFILE_SQL, [scope.tenantId, scope.userId, JSON.stringify(document), JSON.stringify(sources)]);
        report.profileFields = removed.length + rewritten.length;
      }
    }
    // History: a side (old or new value) that holds the withdrawn fact becomes WITHDRAWN_VALUE, so
    // the entry still says who changed the field when; an entry left with nothing is deleted.
    const history = (await tx.query<{ id: string; field: string; old_value: unknown; new_value: unknown }>(PROFILE_HISTORY_SQL, [scope.tenantId, scope.userId])).rows;
    const values = options.profileValues ?? [];
    const withdrawn = (field: string, v: unknown) => v !== null && v !== undefined && !isWithdrawnValue(v) && (jsonStatesWithdrawn(v, w) || values.some((p) => p.field === field && sameJson(p.value, v)));
    const doomed: string[] = [];
    for (const h of history) {
      const [before, after] = [parseMaybe(h.old_value), parseMaybe(h.new_value)];
      const [b, a] = [withdrawn(h.field, before), withdrawn(h.field, after)];
      if (!b && !a) continue;
      const left = (v: unknown, gone: boolean) => !gone && v !== null && v !== undefined && !isWithdrawnValue(v);
      if (!left(before, b) && !left(after, a)) doomed.push(h.id);
      else {
        await tx.query(REDACT_PROFILE_HISTORY_SQL, [scope.tenantId, scope.userId, h.id, b ? JSON.stringify(WITHDRAWN_VALUE) : null, a ? JSON.stringify(WITHDRAWN_VALUE) : null]);
        report.profileHistory++;
      }
    }
    if (doomed.length > 0) {
      const { rowCount } = await tx.query(DELETE_PROFILE_HISTORY_SQL, [scope.tenantId, scope.userId, doomed]);
      await recordDeletion(tx, scope, "profile_history", rowCount, audit);
      report.profileHistory += rowCount;
    }
    const rules = (await tx.query<{ id: string; text: string }>(USER_RULES_SQL, [scope.tenantId, scope.userId])).rows;
    const ruleIds = rules.filter((r) => jsonStatesWithdrawn(r.text, w)).map((r) => r.id);
    if (ruleIds.length > 0) {
      const { rowCount } = await tx.query(DELETE_RULES_SQL, [scope.tenantId, scope.userId, ruleIds]);
      await recordDeletion(tx, scope, "rule", rowCount, audit);
      report.rules = rowCount;
    }
  });

  if (options.jobs ?? true) {
    const before = typeof options.jobs === "object" ? options.jobs.queuedBefore : null;
    await inScope(async (tx) => {
      for (const r of (await tx.query<{ id: number | string; payload: unknown }>(USER_INBOX_SQL, [scope.tenantId, scope.userId, before])).rows) {
        const payload = parseJsonb(r.payload);
        const next = withdrawFromPayload(payload, w);
        if (next === payload) continue;
        await tx.query(UPDATE_INBOX_SQL, [scope.tenantId, scope.userId, r.id, JSON.stringify(next)]);
        report.inbox++;
      }
      for (const r of (await tx.query<{ id: number | string; payload: unknown }>(USER_OPEN_JOBS_SQL, [scope.tenantId, scope.userId, options.exceptJobId ?? null, before])).rows) {
        const payload = parseJsonb(r.payload);
        const next = withdrawFromPayload(payload, w);
        if (next === payload) continue;
        await tx.query(UPDATE_JOB_SQL, [scope.tenantId, scope.userId, r.id, JSON.stringify(next)]);
        report.jobs++;
      }
    });
  }
  return report;
}

/** What a profile history entry holds in place of a value that was forgotten. */
export const WITHDRAWN_VALUE = Object.freeze({ withdrawn: true });

function isWithdrawnValue(v: unknown): boolean {
  return sameJson(v, WITHDRAWN_VALUE);
}

/**
 * The withdrawal of profile values that changed (`from` → `to`) or went: each old string value as a
 * value cue (it marks summary entries and conversation sentences, never other profile fields), the
 * new value protecting the sentences that state it — "I live in Porto" goes when the location
 * becomes Lisbon, "we moved from Porto to Lisbon" stays.
 *
 * @example
 * profileChangeWithdrawal([{ field: "location", from: "Porto", to: "Lisbon" }])
 */
export function profileChangeWithdrawal(changes: ReadonlyArray<{ field: string; from: unknown; to?: unknown }>): { withdrawal: Withdrawal; profileValues: Array<{ field: string; value: unknown }> } {
  const withdrawal: Withdrawal = { cues: [], values: [], protect: [], ids: [] };
  const profileValues: Array<{ field: string; value: unknown }> = [];
  for (const c of changes) {
    if (c.from === undefined || c.from === null || sameJson(c.from, c.to)) continue;
    profileValues.push({ field: c.field, value: c.from });
    for (const text of typeof c.from === "string" ? [c.from] : []) {
      const cue = cueOf(text);
      if (cue) withdrawal.values.push(cue);
    }
    if (typeof c.to === "string") {
      const cue = cueOf(c.to);
      if (cue) withdrawal.protect.push(cue);
    }
  }
  return { withdrawal, profileValues };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function parseJsonb(v: unknown): Record<string, unknown> {
  const parsed = typeof v === "string" ? (JSON.parse(v) as unknown) : v;
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function parseMaybe(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
