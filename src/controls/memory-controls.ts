import type { Database, Queryable } from "../db/database.js";
import { ErrorCodes, MemoryError, invalidInput } from "../errors.js";
import type { ChangeSource } from "../core/change-source.js";
import { resolveUserScope, type UserScope } from "../core/scope.js";
import type { ControlsTarget } from "./controls-target.js";
import type { MemoryKind } from "../state/types.js";
import { MemoryRepository, deleteMemoriesIn } from "../store/memory-store.js";
import { readOptedOut, optedOut as optedOutError } from "../store/opt-out.js";
import { readDeletionAudit, recordDeletion, type DeletionAuditEntry } from "../store/deletion-audit.js";
import type { ExportedMemory, Memory } from "../store/types.js";
import { ProfileStore, checkChangeSource, checkPatchSize, type ProfileFieldSource } from "../profile/profile-store.js";
import { RuleStore } from "../procedural/rule-store.js";
import type { ExportedRule } from "../procedural/rule-types.js";
import { exportRule } from "../procedural/rule-queries.js";
import { MemorySettingsStore, setOptedOutIn } from "./settings-store.js";
import { consumeConfirmation, issueConfirmation } from "./confirmation-tokens.js";
import { forgetOwners } from "../threads/thread-owner.js";
import { deleteThreadsAfterCommit, deleteUserDataIn, deleteUserJobsIn, type DeletedCounts, type ThreadDeletion } from "./user-data.js";
import { USER_EXPORT_FORMAT, USER_EXPORT_VERSION, parseUserExport, type UserExport } from "./user-export.js";
import { systemClock, type Clock } from "./clock.js";
import { exportUserThreads } from "./thread-export.js";
import { PostgresCheckpointer } from "../checkpointer/postgres-checkpointer.js";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { refuseSensitiveText, sensitiveCategoryIn, sensitiveCategoryOf, sensitiveContent } from "../sensitive/sensitive-content.js";
import { withoutSensitiveItems, type ImportRefusals } from "./import-filter.js";
import { withImportedIds } from "./import-ids.js";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { withUserWriteLock } from "../store/user-write-lock.js";
import { forgetEverywhere, profileChangeWithdrawal } from "../forgetting/forget-everywhere.js";
import { withdrawalForMemories } from "../forgetting/memory-withdrawal.js";
import type { Withdrawal } from "../sessions/withdrawal.js";
import { exportUserStoreItemsIn, importUserStoreItemsIn } from "../store/store-item-queries.js";
import {
  CLEAR_DELETE_ALL_REQUEST_SQL,
  DELETE_ALL_REQUEST_SQL,
  RECORD_DELETE_ALL_REQUEST_SQL,
  SUPERSEDED_BY_SQL,
  VERSION_CHAIN_SQL,
} from "./memory-controls-queries.js";

export type MemoryLifecycleStatus = "active" | "archived" | "superseded" | "expired" | "inactive";

/** One memory as the user sees it (JSON-ready, ISO dates). */
export interface InspectedMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  /**
   * active: may be retrieved; archived: set aside by retention for going unused (retrieved only when
   * strongly relevant, active again once used); superseded: replaced by `supersededBy`; expired:
   * past `expiresAt`; inactive: deactivated (by retention or an edit).
   */
  status: MemoryLifecycleStatus;
  origin: Memory["source"]["origin"];
  confidence: number;
  /** Where it came from: the thread (and message, run) that wrote it. */
  source: { threadId: string | null; messageId: string | null; runId: string | null };
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  deactivatedAt: string | null;
  archivedAt: string | null;
  /** The newer memory that replaced this one. */
  supersededBy: string | null;
  /** The older memories this one replaced (the chain backwards, one step). */
  supersedes: string[];
}

/** "What do you remember about me?" */
export interface MemoryInspection {
  tenantId: string;
  userId: string;
  /** While opted out nothing is read: the lists are empty and the profile null. */
  optedOut: boolean;
  memories: InspectedMemory[];
  profile: {
    document: Record<string, unknown>;
    /** Each field with who wrote it last (user edit or extraction, with the source thread/message). */
    fields: Array<{ field: string; value: unknown; source: ProfileFieldSource | null }>;
    createdAt: string;
    updatedAt: string;
  } | null;
  /** The user's own rules in every review state (shared tenant/global rules are not about the user). */
  rules: ExportedRule[];
  /** The user asked to forget everything (in conversation) and has not confirmed yet: show the delete-all confirmation. */
  deleteAllRequest: DeleteAllRequest | null;
}

/** A pending "forget everything" request recorded by the write path. */
export interface DeleteAllRequest {
  requestedAt: string;
  source: Required<ChangeSource>;
}

export interface ImportResult {
  memories: { imported: number; skipped: number };
  profile: boolean;
  profileHistory: number;
  rules: { imported: number; skipped: number };
  settings: boolean;
  /** BaseStore items restored as the user's (skipped: the tenant already holds that namespace and key). */
  storeItems: { imported: number; skipped: number };
  /** Items left out (not stored) because they hold secrets or special-category data: counts and categories, never values. */
  refused: ImportRefusals;
}

export interface MemoryControlsOptions {
  /** The memory store (default: a `MemoryRepository` on `db` with the offline embedder). Its embedder re-embeds edits and imports. */
  store?: MemoryRepository;
  profiles?: ProfileStore;
  rules?: RuleStore;
  settings?: MemorySettingsStore;
  /**
   * How "delete everything" removes the user's conversation threads: a checkpointer (its
   * `deleteThread`, preferred when the app has one), "sql" (default: the checkpointer tables of
   * this schema), or false.
   */
  threads?: ThreadDeletion;
  /** Time for confirmation expiry (tests move it). */
  clock?: Clock;
  /** Lifetime of a delete-all confirmation token (default 10 minutes). */
  confirmationTtlMs?: number;
}

/** Per-call options of the controls that change or delete things. */
export interface ControlCallOptions {
  /** Who asked, recorded in the deletion audit (an app label: "user", "admin:bob"; default "user"). */
  actor?: string;
}

/**
 * What a user can do about what is remembered: see it, edit and delete single memories, delete
 * everything (with a confirmation token), export and import it, and opt out of memory entirely.
 * Everything is for one user (`{ tenantId, userId }`); ids of another user's items behave exactly
 * like unknown ids (NOT_FOUND). Deletions write a content-free audit row.
 *
 * Opt-out: while opted out, reads return nothing (`inspect` says `optedOut: true`), writes
 * (edits, imports, profile changes) throw OPTED_OUT, and `export` throws OPTED_OUT too — an
 * export that silently came back empty could be mistaken for a complete one. Deleting is always
 * allowed.
 *
 * @example
 * const controls = new MemoryControls(db, { threads: checkpointer });
 * const alice = { tenantId: "acme", userId: "alice" };
 * const seen = await controls.inspect(alice);
 * await controls.editMemory(alice, seen.memories[0].id, { text: "Prefers metric units, except for body height." });
 * const backup = await controls.export(alice);
 * const { token } = await controls.requestDeleteAll(alice);
 * await controls.deleteAll(alice, token);
 * await controls.import(alice, backup);
 */
export class MemoryControls {
  readonly store: MemoryRepository;
  readonly profiles: ProfileStore;
  readonly rules: RuleStore;
  readonly settings: MemorySettingsStore;
  readonly threads: ThreadDeletion;
  readonly clock: Clock;
  readonly confirmationTtlMs: number;

  constructor(
    readonly db: Database,
    options: MemoryControlsOptions = {},
  ) {
    this.store = options.store ?? new MemoryRepository(db);
    this.profiles = options.profiles ?? new ProfileStore(db);
    this.rules = options.rules ?? new RuleStore(db);
    this.settings = options.settings ?? new MemorySettingsStore(db);
    this.threads = options.threads ?? "sql";
    this.clock = options.clock ?? systemClock;
    this.confirmationTtlMs = options.confirmationTtlMs ?? 10 * 60_000;
    if (!Number.isFinite(this.confirmationTtlMs) || this.confirmationTtlMs < 1000) throw invalidInput("confirmationTtlMs", "must be at least 1000 ms");
    for (const [name, s] of [["store", this.store], ["profiles", this.profiles], ["rules", this.rules], ["settings", this.settings]] as const) {
      if (s.db !== db) throw invalidInput(name, "must use the same Database as the controls (deletes and imports span them in one transaction)");
    }
  }

  /** What the sensitive-data filter lets through: the store's write policy (`allowSpecialCategory`). */
  private get storable(): { allowSpecialCategory: boolean } {
    return { allowSpecialCategory: this.store.writePolicy.allowSpecialCategory };
  }

  /**
   * Everything remembered about the user: memories (every status, with kind, dates, source thread
   * and the supersede links), the profile with who wrote each field, and the user's rules.
   *
   * @example
   * const { memories, profile, rules, optedOut } = await controls.inspect(alice);
   */
  async inspect(scope: UserScope, options: { limit?: number } = {}): Promise<MemoryInspection> {
    const s = resolveUserScope(scope);
    const limit = options.limit ?? 10_000;
    return this.db.transaction(async (tx) => {
      const deleteAllRequest = await readDeleteAllRequest(tx, s);
      if (await readOptedOut(tx, s)) return { ...s, optedOut: true, memories: [], profile: null, rules: [], deleteAllRequest };
      const memories = (await this.store.export(s, { tx })).slice(-limit);
      const profile = await this.profiles.exportIn(tx, s);
      const rules = await this.rules.exportIn(tx, s);
      return {
        ...s,
        optedOut: false,
        memories: inspectMemories(memories, this.clock.now()),
        profile: profile && {
          document: profile.document,
          fields: Object.entries(profile.document).map(([field, value]) => ({ field, value, source: profile.sources[field] ?? null })),
          createdAt: profile.createdAt,
          updatedAt: profile.updatedAt,
        },
        rules,
        deleteAllRequest,
      };
    }, { scope: s });
  }

  /** One memory of the user; NOT_FOUND for an unknown id, another user's id, or while opted out. */
  async getMemory(scope: UserScope, id: string): Promise<InspectedMemory> {
    const s = resolveUserScope(scope);
    const m = await this.store.get(s, id);
    if (!m) throw notFound("memory", id);
    const chain = await this.db.transaction(
      (tx) => tx.query<{ id: string }>(SUPERSEDED_BY_SQL, [s.tenantId, s.userId, id]),
      { scope: s },
    );
    return { ...inspectMemory(m, this.clock.now()), supersedes: chain.rows.map((r) => r.id) };
  }

  /**
   * Edit one memory's text (re-embedded) and/or kind. The user's edit makes it `user_stated` with
   * confidence 1, so retention never deactivates or decays it. NOT_FOUND outside the user's
   * memories; OPTED_OUT while opted out. A text holding a secret, a card or account number, a
   * national id or (unless `writePolicy.allowSpecialCategory`) special-category data is
   * SENSITIVE_CONTENT and changes nothing — the filter every write path runs.
   */
  async editMemory(scope: UserScope, id: string, patch: { text?: string; kind?: MemoryKind }): Promise<InspectedMemory> {
    const s = resolveUserScope(scope);
    if (!patch || typeof patch !== "object" || (patch.text === undefined && patch.kind === undefined)) throw invalidInput("patch", "give a new text and/or kind");
    if (patch.text !== undefined) this.store.checkText(patch.text, "text");
    refuseSensitiveText(patch.text, "text", this.storable);
    return withUserWriteLock(this.db, s, async () => {
      // The old wording, withdrawn wherever it was quoted once the edit is made (the new text
      // protects the sentences that state it).
      const w = patch.text === undefined || !UUID_RE.test(id) ? null : await this.db.transaction((tx) => withdrawalForMemories(tx, s, [id], { replacedBy: patch.text }), { scope: s });
      const updated = await this.store.update(s, id, { text: patch.text, kind: patch.kind, origin: "user_stated", confidence: 1 });
      if (w) await this.forgetEverywhere(s, w, "controls.editMemory", {});
      return inspectMemory(updated, this.clock.now());
    });
  }

  /**
   * Delete one memory — the row, its embedding and its full-text entry — and, by default, the older
   * versions it superseded (they hold earlier wordings of the same thing); and the fact wherever it
   * is quoted: past sessions, the rolling summaries and other memory channels of the user's threads,
   * the profile and its history, the user's rules, queued work (`forgetEverywhere`). NOT_FOUND when
   * the user has no such memory. Allowed while opted out. Audited.
   *
   * @example
   * await controls.deleteMemory(alice, id); // → { deleted: 2 } (the memory and the version it replaced)
   */
  async deleteMemory(scope: UserScope, id: string, options: ControlCallOptions & { includePrevious?: boolean } = {}): Promise<{ deleted: number }> {
    const s = resolveUserScope(scope);
    checkUuid(id, "id");
    const actor = actorOf(options);
    // Under the user's write lock: a write pass running for the user finishes first, and one that
    // starts later finds its job's lease taken (see forgetEverywhere) instead of writing it again.
    return withUserWriteLock(this.db, s, async () => {
      const ids = await this.db.transaction(async (tx) => {
        const chain = await versionChain(tx, s, id);
        return options.includePrevious === false ? chain.filter((x) => x === id.toLowerCase()) : chain;
      }, { scope: s });
      if (ids.length === 0) throw notFound("memory", id);
      await this.forgetMemoriesIn(s, ids, { via: "controls.deleteMemory", actor });
      const deleted = await this.db.transaction((tx) => deleteMemoriesIn(tx, { level: "user", ...s }, ids, { via: "controls.deleteMemory", actor }), { scope: s });
      if (deleted === 0) throw notFound("memory", id);
      return { deleted };
    });
  }

  /**
   * Delete these memories of the user (and the older versions each superseded), and the fact
   * wherever it is quoted (as {@link deleteMemory}), audited with the change source; ids the user
   * does not have are skipped. Returns how many rows were deleted. What the write path calls for
   * "forget that …" (see {@link writeTarget}), inside the user's write pass: `exceptJobId` is the
   * job of that pass (its own payload is left alone) and `terms` what the request names besides.
   */
  async deleteMemories(scope: UserScope, ids: readonly string[], source: ChangeSource, options: { exceptJobId?: number | null; terms?: readonly string[] } = {}): Promise<number> {
    const s = resolveUserScope(scope);
    if (!Array.isArray(ids)) throw invalidInput("ids", "must be an array of memory ids");
    for (const [i, id] of ids.entries()) checkUuid(id, `ids[${i}]`);
    const src = checkChangeSource(source, "source");
    if (ids.length === 0 && !(options.terms && options.terms.length > 0)) return 0;
    const all = await this.db.transaction(async (tx) => {
      const set = new Set<string>();
      for (const id of ids) for (const v of await versionChain(tx, s, id)) set.add(v);
      return [...set];
    }, { scope: s });
    await this.forgetMemoriesIn(s, all, { via: "controls.deleteMemories", actor: src.kind, exceptJobId: options.exceptJobId, terms: options.terms });
    if (all.length === 0) return 0;
    return this.db.transaction((tx) => deleteMemoriesIn(tx, { level: "user", ...s }, all, { via: "controls.deleteMemories", actor: src.kind }), { scope: s });
  }

  /** Withdraw these memories' texts (and `terms`) everywhere they are quoted, before the rows go. */
  private async forgetMemoriesIn(s: UserScope, ids: readonly string[], options: { via: string; actor: string; exceptJobId?: number | null; terms?: readonly string[] }): Promise<void> {
    const w = await this.db.transaction((tx) => withdrawalForMemories(tx, s, ids, { terms: options.terms }), { scope: s });
    await this.forgetEverywhere(s, w, options.via, { actor: options.actor, exceptJobId: options.exceptJobId });
  }

  /** {@link forgetEverywhere} with this object's stores and its threads setting. */
  private async forgetEverywhere(s: UserScope, w: Withdrawal, via: string, options: { actor?: string; exceptJobId?: number | null; jobs?: boolean }): Promise<void> {
    await forgetEverywhere({ db: this.db, store: this.store }, s, w, { via, actor: options.actor, exceptJobId: options.exceptJobId, jobs: options.jobs, threads: this.threads !== false, serde: this.serde });
  }

  /** The checkpointer's serializer when the controls have the checkpointer (its stored values are read with it). */
  private get serde(): SerializerProtocol | undefined {
    return this.threads && typeof this.threads === "object" ? (this.threads as { serde?: SerializerProtocol }).serde : undefined;
  }

  /**
   * Record that the user asked to forget everything (no deletion: the app shows the delete-all
   * confirmation — see {@link pendingDeleteAllRequest} and `inspect().deleteAllRequest` — and
   * deletes once the user confirms with a token). Allowed while opted out.
   */
  async recordDeleteAllRequest(scope: UserScope, source: ChangeSource): Promise<void> {
    const s = resolveUserScope(scope);
    const src = checkChangeSource(source, "source");
    await this.db.transaction((tx) => tx.query(RECORD_DELETE_ALL_REQUEST_SQL, [s.tenantId, s.userId, JSON.stringify(src)]), { scope: s });
  }

  /** The pending "forget everything" request, or null. */
  async pendingDeleteAllRequest(scope: UserScope): Promise<DeleteAllRequest | null> {
    const s = resolveUserScope(scope);
    return this.db.transaction((tx) => readDeleteAllRequest(tx, s), { scope: s });
  }

  /**
   * This object as the extraction write path's {@link ControlsTarget}: "forget that …" deletes
   * through {@link deleteMemories} (audited), "forget everything" only records the request.
   *
   * @example
   * await extractAndStore(messages, { store, scope, threadId, targets: { profile: controls.profiles, rules: controls.rules, settings: controls.settings, controls: controls.writeTarget } });
   */
  get writeTarget(): ControlsTarget {
    return {
      deleteMemories: (scope, ids, source, options) => this.deleteMemories(scope, ids, source, options),
      requestDeleteAll: (scope, source) => this.recordDeleteAllRequest(scope, source),
    };
  }

  /**
   * Merge-patch the profile as the user's own edit (see `ProfileStore.update`). OPTED_OUT while
   * opted out. A value (at any depth) holding a secret or, unless allowed, special-category data is
   * SENSITIVE_CONTENT naming the field, and nothing changes.
   */
  async updateProfile(scope: UserScope, patch: Record<string, unknown>) {
    if (patch && typeof patch === "object" && !Array.isArray(patch)) {
      // Size first: a 10 MB value is INVALID_INPUT, not a scan of 10 MB.
      checkPatchSize(patch);
      for (const [field, value] of Object.entries(patch)) {
        // A field name is not echoed either when it is itself the secret.
        const inName = sensitiveCategoryOf(field, this.storable);
        if (inName) throw sensitiveContent("patch", inName);
        const category = sensitiveCategoryIn(value, this.storable);
        if (category) throw sensitiveContent(`patch.${field}`, category);
      }
    }
    const s = resolveUserScope(scope);
    const before = (await this.profiles.getDocument(s)) ?? {};
    const result = await this.profiles.update(s, patch, { kind: "user_edit" });
    // A value the user changed or removed stops being quoted (past sessions, summaries, history).
    const changes = result.changed.map((field) => ({ field, from: before[field], to: result.profile.document[field] }));
    const { withdrawal, profileValues } = profileChangeWithdrawal(changes);
    if (profileValues.length > 0) await forgetEverywhere({ db: this.db, store: this.store }, s, withdrawal, { via: "controls.updateProfile", actor: "user", profileValues, threads: this.threads !== false, serde: this.serde });
    return result;
  }

  /** Delete the profile and its history, and its values wherever they are quoted (past sessions, summaries). NOT_FOUND when there is none. Audited. */
  async deleteProfile(scope: UserScope, options: ControlCallOptions = {}): Promise<void> {
    const s = resolveUserScope(scope);
    const before = (await this.profiles.getDocument(s)) ?? {};
    const actor = actorOf(options);
    const { withdrawal, profileValues } = profileChangeWithdrawal(Object.entries(before).map(([field, from]) => ({ field, from })));
    if (profileValues.length > 0) await forgetEverywhere({ db: this.db, store: this.store }, s, withdrawal, { via: "controls.deleteProfile", actor, threads: this.threads !== false, serde: this.serde });
    if (!(await this.profiles.delete(s, { via: "controls.deleteProfile", actor }))) throw notFound("profile", "");
  }

  /** Approve one of the user's own proposed rules (e.g. "keep this?" in the app). */
  async approveRule(scope: UserScope, id: string, options: ControlCallOptions = {}): Promise<ExportedRule> {
    return exportRule(await this.rules.approve(resolveUserScope(scope), id, { reviewer: actorOf(options) }));
  }

  /** Revoke one of the user's own rules: it stops reaching the prompt on the next turn. */
  async revokeRule(scope: UserScope, id: string, options: ControlCallOptions = {}): Promise<ExportedRule> {
    return exportRule(await this.rules.revoke(resolveUserScope(scope), id, { reviewer: actorOf(options) }));
  }

  /** Delete one of the user's own rules. Audited. */
  async deleteRule(scope: UserScope, id: string, options: ControlCallOptions = {}): Promise<void> {
    await this.rules.delete(resolveUserScope(scope), id, { via: "controls.deleteRule", actor: actorOf(options) });
  }

  /**
   * Step one of "delete everything": a one-time token, valid for `confirmationTtlMs`, bound to this
   * user. Show it (or a confirmation screen carrying it) and pass it to {@link deleteAll}.
   */
  async requestDeleteAll(scope: UserScope): Promise<{ token: string; expiresAt: Date }> {
    const s = resolveUserScope(scope);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.confirmationTtlMs);
    const token = await this.db.transaction((tx) => issueConfirmation(tx, s, "delete_all", now, expiresAt), { scope: s });
    return { token, expiresAt };
  }

  /**
   * Delete everything of the user: memories (with embeddings and full-text entries), profile and
   * history, their rules, queued jobs (whose payloads hold their messages), the `BaseStore` items
   * their store wrote (`LangGraphStore.forScope` / `forConfig`) and conversation threads.
   * Needs a token from {@link requestDeleteAll}; a wrong, expired, used or other user's token is
   * CONFIRMATION_INVALID and deletes nothing. The opt-out setting is kept. Audited per kind.
   *
   * @example
   * const { token } = await controls.requestDeleteAll(alice);
   * const counts = await controls.deleteAll(alice, token); // → { memories: 12, profile: 1, … }
   */
  async deleteAll(scope: UserScope, token: string, options: ControlCallOptions = {}): Promise<DeletedCounts> {
    const s = resolveUserScope(scope);
    return this.purgeUser(s, { via: "controls.deleteAll", actor: actorOf(options) }, (tx) => consumeConfirmation(tx, s, "delete_all", token, this.clock.now()));
  }

  /**
   * Everything stored about the user as one JSON document (see `UserExport`), with the
   * conversation threads delete-all removes, read through the controls' checkpointer (this
   * schema's tables with "sql"; none with `threads: false`); OPTED_OUT while opted out (opt back in
   * to export, or delete).
   */
  async export(scope: UserScope): Promise<UserExport> {
    const s = resolveUserScope(scope);
    const doc = await this.db.transaction(async (tx): Promise<UserExport> => {
      if (await readOptedOut(tx, s)) throw optedOutError();
      return {
        format: USER_EXPORT_FORMAT,
        version: USER_EXPORT_VERSION,
        exportedAt: this.clock.now().toISOString(),
        tenantId: s.tenantId,
        userId: s.userId,
        memories: await this.store.export(s, { tx }),
        profile: await this.profiles.exportIn(tx, s),
        rules: await this.rules.exportIn(tx, s),
        settings: await this.settings.exportIn(tx, s),
        storeItems: await exportUserStoreItemsIn(tx, s),
      };
    }, { scope: s });
    // After the transaction: the checkpointer reads on its own connection (one PGlite connection
    // cannot serve both at once).
    const saver = this.threadReader();
    return saver ? { ...doc, threads: await exportUserThreads(this.db, saver, s) } : doc;
  }

  /** What reads the user's threads for an export: the checkpointer they are deleted with, or one on this schema's tables. */
  private threadReader(): BaseCheckpointSaver | null {
    if (this.threads === false) return null;
    if (typeof this.threads === "object" && typeof (this.threads as Partial<BaseCheckpointSaver>).list === "function") return this.threads as BaseCheckpointSaver;
    return PostgresCheckpointer.fromDatabase(this.db, { serde: this.serde });
  }

  /**
   * Restore an export for this user in one transaction: memories keep their dates, use counts and
   * supersede links (re-embedded with the store's embedder), the profile its history, rules their
   * states, settings their values. Every item gets an id of this user's own (see `import-ids.ts`):
   * its exported id when the user already has it, a thread's session id for a past session, else a
   * uuid derived from the user and the exported id — so an import cannot take, or learn of, another
   * user's ids. What the user already has is skipped, so repeating an import is harmless. Invalid data is INVALID_INPUT and imports nothing; OPTED_OUT while opted out.
   * The export may come from another user or deployment: everything lands in `scope`. Items holding
   * secrets or (unless allowed) special-category data are left out and counted in `refused` — the
   * write policy's filter, as for every other write; the rest imports. BaseStore items (`storeItems`)
   * come back as the user's, without vectors, never over an item the tenant already holds.
   */
  async import(scope: UserScope, data: unknown): Promise<ImportResult> {
    const s = resolveUserScope(scope);
    const { doc: given, refused } = withoutSensitiveItems(parseUserExport(data), this.storable);
    return this.db.transaction(async (tx) => {
      if (await readOptedOut(tx, s)) throw optedOutError();
      // Ids of the user's own: an import can neither take another user's id nor learn it exists.
      const doc = await withImportedIds(tx, s, given);
      const memories = await this.store.importMany(s, doc.memories, { tx });
      const profileHistory = doc.profile ? (await this.profiles.importIn(tx, s, doc.profile)).history : 0;
      const rules = await this.rules.importIn(tx, s, doc.rules);
      if (doc.settings) await this.settings.importIn(tx, s, doc.settings);
      const storeItems = await importUserStoreItemsIn(tx, s, doc.storeItems ?? []);
      return { memories, profile: doc.profile !== null, profileHistory, rules, settings: doc.settings !== null, storeItems, refused };
    }, { scope: s });
  }

  /**
   * Opt out: from now on nothing is read or written for the user (every store enforces it) and
   * their queued jobs are dropped. With `purge`, everything stored is deleted in the same
   * transaction (as {@link deleteAll}, without a token). Opt back in with {@link optIn}.
   */
  async optOut(scope: UserScope, options: ControlCallOptions & { purge?: boolean } = {}): Promise<{ changed: boolean; purged: DeletedCounts | null }> {
    const s = resolveUserScope(scope);
    const audit = { via: "controls.optOut", actor: actorOf(options) };
    if (options.purge) {
      let changed = false;
      const purged = await this.purgeUser(s, audit, async (tx) => {
        changed = await setOptedOutIn(tx, s, true);
      });
      return { changed, purged };
    }
    const changed = await this.db.transaction(async (tx) => {
      const changed = await setOptedOutIn(tx, s, true);
      await recordDeletion(tx, s, "job", await deleteUserJobsIn(tx, s), audit);
      return changed;
    }, { scope: s });
    return { changed, purged: null };
  }

  /** Opt back in: reads and writes work again (nothing deleted comes back). */
  async optIn(scope: UserScope): Promise<{ changed: boolean }> {
    return { changed: await this.settings.setOptedOut(scope, false) };
  }

  async isOptedOut(scope: UserScope): Promise<boolean> {
    return this.settings.isOptedOut(scope);
  }

  /** The user's deletion audit, newest first: what kind of thing, how many, when, which path, who asked. */
  async deletionLog(scope: UserScope, options: { limit?: number } = {}): Promise<DeletionAuditEntry[]> {
    const s = resolveUserScope(scope);
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw invalidInput("limit", "must be an integer from 1 to 10000");
    return this.db.transaction((tx) => readDeletionAudit(tx, s, limit), { scope: s });
  }

  /**
   * Delete all of one user's data after `before` ran in the same transaction (token check,
   * opt-out). Used by the retention sweep's purge too.
   */
  async purgeUser(s: UserScope, audit: { via: string; actor?: string | null }, before?: (tx: Queryable) => Promise<void>): Promise<DeletedCounts> {
    const { counts, threadIds, deletedThreadIds } = await this.db.transaction(async (tx) => {
      await before?.(tx);
      const result = await deleteUserDataIn(tx, s, { profiles: this.profiles, rules: this.rules, threads: this.threads }, audit);
      await tx.query(CLEAR_DELETE_ALL_REQUEST_SQL, [s.tenantId, s.userId]);
      return result;
    }, { scope: s });
    // Nothing of the user stays in this process's candidate cache either.
    this.store.memoriesChanged({ level: "user", tenantId: s.tenantId, userId: s.userId });
    forgetOwners(this.db, deletedThreadIds);
    if (threadIds.length > 0 && this.threads && typeof this.threads === "object") {
      counts.threads = await deleteThreadsAfterCommit(this.db, s, this.threads, threadIds, audit);
    }
    return counts;
  }
}

async function readDeleteAllRequest(tx: Queryable, s: UserScope): Promise<DeleteAllRequest | null> {
  const { rows } = await tx.query<{ at: Date | string | null; source: Required<ChangeSource> | string | null }>(DELETE_ALL_REQUEST_SQL, [s.tenantId, s.userId]);
  const r = rows[0];
  if (!r?.at || !r.source) return null;
  return { requestedAt: new Date(r.at).toISOString(), source: typeof r.source === "string" ? JSON.parse(r.source) : r.source };
}

/** The memory and every older version it superseded, transitively (user's own rows only). */
async function versionChain(tx: Queryable, s: UserScope, id: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(VERSION_CHAIN_SQL, [s.tenantId, s.userId, id]);
  return rows.map((r) => r.id);
}

function inspectMemories(memories: readonly ExportedMemory[], now: Date): InspectedMemory[] {
  const supersedes = new Map<string, string[]>();
  for (const m of memories) if (m.supersededBy) supersedes.set(m.supersededBy, [...(supersedes.get(m.supersededBy) ?? []), m.id]);
  return memories.map((m) => ({ ...inspectExported(m, now), supersedes: supersedes.get(m.id) ?? [] }));
}

function inspectMemory(m: Memory, now: Date): InspectedMemory {
  return inspectExported(
    {
      ...m,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
      lastUsedAt: m.lastUsedAt?.toISOString() ?? null,
      expiresAt: m.expiresAt?.toISOString() ?? null,
      deactivatedAt: m.deactivatedAt?.toISOString() ?? null,
      archivedAt: m.archivedAt?.toISOString() ?? null,
    },
    now,
  );
}

function inspectExported(m: ExportedMemory, now: Date): InspectedMemory {
  const status: MemoryLifecycleStatus = m.supersededBy
    ? "superseded"
    : m.expiresAt && new Date(m.expiresAt).getTime() <= now.getTime()
      ? "expired"
      : m.deactivatedAt
        ? "inactive"
        : m.archivedAt
          ? "archived"
          : "active";
  return {
    id: m.id,
    kind: m.kind,
    text: m.text,
    status,
    origin: m.source.origin,
    confidence: m.confidence,
    source: { threadId: m.source.threadId, messageId: m.source.messageId, runId: m.source.runId },
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    lastUsedAt: m.lastUsedAt,
    expiresAt: m.expiresAt,
    deactivatedAt: m.deactivatedAt,
    archivedAt: m.archivedAt ?? null,
    supersededBy: m.supersededBy,
    supersedes: [],
  };
}

function actorOf(options: ControlCallOptions): string {
  const actor = options.actor ?? "user";
  if (typeof actor !== "string" || actor.length === 0 || actor.length > 200) throw invalidInput("actor", "must be a non-empty string of at most 200 characters");
  return actor;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(id: unknown, field: string): asserts id is string {
  if (typeof id !== "string" || !UUID_RE.test(id)) throw invalidInput(field, "must be an id (a uuid)");
}

function notFound(what: string, id: string): MemoryError {
  return new MemoryError(ErrorCodes.NOT_FOUND, id ? `no ${what} ${id} for this user` : `no ${what} for this user`, { details: id ? { id } : undefined });
}
