import type { Database, Queryable } from "../db/database.js";
import { invalidInput } from "../errors.js";
import type { ChangeSource } from "../core/change-source.js";
import { resolveUserScope, type UserScope } from "../core/scope.js";
import type { ProfileTarget } from "./profile-target.js";
import type { ProfileDocument } from "../state/types.js";
import { assertNotOptedOut } from "../store/opt-out.js";
import { recordDeletion, type DeletionContext } from "../store/deletion-audit.js";
import { fitProfile, type FormatProfileOptions } from "../context/format-profile.js";
import { changedFields, isPlainObject, mergePatch } from "../core/json.js";
import { resolveProfileSchema, validateProfile, type ProfileSchemaDefinition, type ResolvedProfileSchema } from "./profile-schema.js";
import {
  DELETE_HISTORY_SQL,
  DELETE_PROFILE_SQL,
  ENSURE_PROFILE_SQL,
  EXPORT_HISTORY_SQL,
  EXPORT_PROFILE_SQL,
  IMPORT_HISTORY_SQL,
  IMPORT_PROFILE_SQL,
  INSERT_HISTORY_SQL,
  LOCK_PROFILE_SQL,
  SELECT_HISTORY_SQL,
  SELECT_PROFILE_SQL,
  WRITE_PROFILE_SQL,
  type HistoryRow,
  type ProfileRow,
} from "./profile-queries.js";

export const CHANGE_SOURCE_KINDS: readonly ChangeSource["kind"][] = ["user_edit", "extraction", "tool", "import", "api"];

/** Who last wrote one field. */
export interface ProfileFieldSource {
  kind: ChangeSource["kind"];
  threadId: string | null;
  messageId: string | null;
  runId: string | null;
  /** ISO time of the write. */
  at: string;
}

/** A user's stored profile. */
export interface Profile {
  tenantId: string;
  userId: string;
  document: ProfileDocument;
  /** Per field, who wrote it last (user edit or extraction, with the source thread/message). */
  sources: Record<string, ProfileFieldSource>;
  createdAt: Date;
  updatedAt: Date;
}

/** One change of one field; `oldValue`/`newValue` undefined = the field was absent. */
export interface ProfileChange {
  id: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
  source: Required<ChangeSource>;
  createdAt: Date;
}

/** A profile as exported (ISO dates). */
export interface ExportedProfile {
  document: ProfileDocument;
  sources: Record<string, ProfileFieldSource>;
  createdAt: string;
  updatedAt: string;
  history: ExportedProfileChange[];
}

export interface ExportedProfileChange {
  id: string;
  field: string;
  /** Absent (undefined / missing) when the field did not exist before. */
  oldValue?: unknown;
  newValue?: unknown;
  source: Required<ChangeSource>;
  createdAt: string;
}

export interface ProfileStoreOptions {
  /** The app's profile schema and field priorities (default: name, timezone, units, language, location, occupation, employer, plan, notes). */
  profile?: ProfileSchemaDefinition;
}

const MAX_PATCH_JSON = 65_536;

/**
 * The profile (semantic memory of stable facts): one JSON document per tenant + user, validated by
 * a zod schema the app can replace, changed only by merge-patches that record who wrote each field.
 * Implements the extraction write path's {@link ProfileTarget}. Opt-out is enforced here: reads of
 * an opted-out user return null/[], writes throw OPTED_OUT.
 *
 * @example
 * const profiles = new ProfileStore(db);
 * const alice = { tenantId: "acme", userId: "alice" };
 * await profiles.applyPatch(alice, { name: "Alice", timezone: "Europe/Paris" }, { kind: "user_edit" });
 * await profiles.applyPatch(alice, { timezone: null }, { kind: "extraction", threadId: "t1", messageId: "m4" });
 * (await profiles.get(alice))?.document; // { name: "Alice" }
 */
export class ProfileStore implements ProfileTarget {
  readonly schema: ResolvedProfileSchema;

  constructor(
    readonly db: Database,
    options: ProfileStoreOptions = {},
  ) {
    this.schema = resolveProfileSchema(options.profile);
  }

  /** The profile fields extraction may write. */
  get fields(): readonly string[] {
    return this.schema.fields;
  }

  /** Field names, most important first (what is dropped last under a tight budget). */
  get priorities(): readonly string[] {
    return this.schema.priorities;
  }

  /** The user's profile, or null (none, or the user opted out). */
  async get(scope: UserScope): Promise<Profile | null> {
    const s = resolveUserScope(scope);
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<ProfileRow>(SELECT_PROFILE_SQL, [s.tenantId, s.userId]);
      return rows[0] ? profileFromRow(rows[0]) : null;
    }, { scope: s });
  }

  /** Just the document (what the prompt gets), or null. */
  async getDocument(scope: UserScope): Promise<ProfileDocument | null> {
    return (await this.get(scope))?.document ?? null;
  }

  /**
   * Merge-patch the profile (RFC 7396: `null` removes a field), validate the result against the
   * schema, and record every changed field with its source. Unknown fields and invalid values are
   * INVALID_INPUT and change nothing. {@link ProfileTarget} method.
   */
  async applyPatch(scope: UserScope, patch: Record<string, unknown>, source: ChangeSource): Promise<void> {
    await this.update(scope, patch, source);
  }

  /**
   * {@link applyPatch}, returning the profile after the change and the fields that changed.
   *
   * @example
   * const { changed } = await profiles.update(alice, { units: "imperial" }, { kind: "user_edit" });
   */
  async update(scope: UserScope, patch: Record<string, unknown>, source: ChangeSource): Promise<{ profile: Profile; changed: string[] }> {
    const s = resolveUserScope(scope);
    const checked = this.checkPatch(patch);
    const src = checkChangeSource(source, "source");
    return this.db.transaction(async (tx) => {
      await assertNotOptedOut(tx, s);
      const created = (await tx.query(ENSURE_PROFILE_SQL, [s.tenantId, s.userId])).rows.length > 0;
      const current = profileFromRow((await tx.query<ProfileRow>(LOCK_PROFILE_SQL, [s.tenantId, s.userId])).rows[0]);
      const merged = mergePatch(current.document, checked) as Record<string, unknown>;
      const next = validateProfile(this.schema, merged);
      const changed = changedFields(current.document, next);
      if (changed.length === 0) {
        // A no-op patch on a missing profile leaves no empty profile behind.
        if (created) await tx.query(DELETE_PROFILE_SQL, [s.tenantId, s.userId]);
        return { profile: current, changed };
      }
      const at = new Date().toISOString();
      const sources = { ...current.sources };
      for (const field of changed) {
        if (field in next) sources[field] = { kind: src.kind, threadId: src.threadId, messageId: src.messageId, runId: src.runId, at };
        else delete sources[field];
      }
      const { rows } = await tx.query<ProfileRow>(WRITE_PROFILE_SQL, [s.tenantId, s.userId, JSON.stringify(next), JSON.stringify(sources)]);
      await tx.query(INSERT_HISTORY_SQL, [
        s.tenantId,
        s.userId,
        changed,
        changed.map((f) => jsonOrNull(current.document[f])),
        changed.map((f) => jsonOrNull(next[f])),
        src.kind,
        src.threadId,
        src.messageId,
        src.runId,
      ]);
      return { profile: profileFromRow(rows[0]), changed };
    }, { scope: s });
  }

  /** Changes, newest first (empty while opted out). */
  async history(scope: UserScope, options: { field?: string; limit?: number } = {}): Promise<ProfileChange[]> {
    const s = resolveUserScope(scope);
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw invalidInput("limit", "must be an integer from 1 to 10000");
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<HistoryRow>(SELECT_HISTORY_SQL, [s.tenantId, s.userId, options.field ?? null, limit]);
      return rows.map(changeFromRow);
    }, { scope: s });
  }

  /** Delete the profile and its history (allowed while opted out); false when there was none. Audited. */
  async delete(scope: UserScope, audit: DeletionContext = {}): Promise<boolean> {
    const s = resolveUserScope(scope);
    return this.db.transaction(async (tx) => (await this.deleteIn(tx, s, { via: "profiles.delete", ...audit })).profile > 0, { scope: s });
  }

  /** Fit a document to a token budget by field priority (see `fitProfile`). */
  fit(document: ProfileDocument | null, options: Omit<FormatProfileOptions, "priorities"> = {}) {
    return fitProfile(document, { ...options, priorities: this.priorities });
  }

  /** Inside a scoped transaction: delete profile and history, audit them. */
  async deleteIn(tx: Queryable, s: UserScope, audit: DeletionContext & { via: string }): Promise<{ profile: number; history: number }> {
    const profile = (await tx.query(DELETE_PROFILE_SQL, [s.tenantId, s.userId])).rowCount;
    const history = (await tx.query(DELETE_HISTORY_SQL, [s.tenantId, s.userId])).rowCount;
    await recordDeletion(tx, s, "profile", profile, audit);
    await recordDeletion(tx, s, "profile_history", history, audit);
    return { profile, history };
  }

  /** Inside a scoped transaction: the profile with its full history, or null. */
  async exportIn(tx: Queryable, s: UserScope): Promise<ExportedProfile | null> {
    const { rows } = await tx.query<ProfileRow>(EXPORT_PROFILE_SQL, [s.tenantId, s.userId]);
    const history = (await tx.query<HistoryRow>(EXPORT_HISTORY_SQL, [s.tenantId, s.userId])).rows.map(changeFromRow);
    if (!rows[0] && history.length === 0) return null;
    const p = rows[0] ? profileFromRow(rows[0]) : null;
    return {
      document: p?.document ?? {},
      sources: p?.sources ?? {},
      createdAt: (p?.createdAt ?? history[0].createdAt).toISOString(),
      updatedAt: (p?.updatedAt ?? history[history.length - 1].createdAt).toISOString(),
      history: history.map((h) => ({
        id: h.id,
        field: h.field,
        ...(h.oldValue === undefined ? {} : { oldValue: h.oldValue }),
        ...(h.newValue === undefined ? {} : { newValue: h.newValue }),
        source: h.source,
        createdAt: h.createdAt.toISOString(),
      })),
    };
  }

  /** Inside a scoped transaction: restore an exported profile (validated against the schema) and its history. */
  async importIn(tx: Queryable, s: UserScope, data: ExportedProfile): Promise<{ history: number }> {
    await assertNotOptedOut(tx, s);
    const document = validateProfile(this.schema, checkPlainObject(data.document, "profile.document"));
    const history = Array.isArray(data.history) ? data.history : [];
    history.forEach((h, i) => {
      if (typeof h?.field !== "string" || h.field === "") throw invalidInput(`profile.history[${i}].field`, "must be a field name");
      checkChangeSource(h.source, `profile.history[${i}].source`);
    });
    await tx.query(IMPORT_PROFILE_SQL, [
      s.tenantId,
      s.userId,
      JSON.stringify(document),
      JSON.stringify(checkPlainObject(data.sources ?? {}, "profile.sources")),
      checkIso(data.createdAt, "profile.createdAt"),
      checkIso(data.updatedAt, "profile.updatedAt"),
    ]);
    if (history.length === 0) return { history: 0 };
    const { rowCount } = await tx.query(IMPORT_HISTORY_SQL, [
      s.tenantId,
      s.userId,
      history.map((h) => h.id),
      history.map((h) => h.field),
      history.map((h) => jsonOrNull(h.oldValue)),
      history.map((h) => jsonOrNull(h.newValue)),
      history.map((h) => h.source.kind),
      history.map((h) => h.source.threadId ?? null),
      history.map((h) => h.source.messageId ?? null),
      history.map((h) => h.source.runId ?? null),
      history.map((h, i) => checkIso(h.createdAt, `profile.history[${i}].createdAt`)),
    ]);
    return { history: rowCount };
  }

  private checkPatch(patch: unknown): Record<string, unknown> {
    const p = checkPlainObject(patch, "patch");
    const unknown = Object.keys(p).filter((k) => !this.schema.fields.includes(k));
    if (unknown.length > 0) {
      throw invalidInput("patch", `names fields the profile schema does not have: ${unknown.join(", ")} (known: ${this.schema.fields.join(", ")})`, { unknown });
    }
    let json: string;
    try {
      // NaN and ±Infinity would become JSON null — a merge-patch deletion of the field.
      json = JSON.stringify(p, (key, value: unknown) => {
        if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`${key || "a value"} is ${value}, which JSON cannot represent`);
        return value;
      });
    } catch (err) {
      throw invalidInput("patch", `must be JSON-serialisable (${(err as Error).message})`);
    }
    if (json.length > MAX_PATCH_JSON) throw invalidInput("patch", "is larger than 64 KiB of JSON");
    if (json.includes("\\u0000")) throw invalidInput("patch", "must not contain NUL characters");
    return JSON.parse(json) as Record<string, unknown>;
  }
}

/**
 * A patch's size, checked before anything reads its values (the secret filter would scan a 10 MB
 * value): INVALID_INPUT when its JSON is over 64 KiB or it is not JSON at all. Names nothing of the
 * patch (a field name may itself be the secret).
 */
export function checkPatchSize(patch: unknown): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(patch);
  } catch {
    throw invalidInput("patch", "must be JSON-serialisable (no BigInt, functions or circular references)");
  }
  if (json !== undefined && json.length > MAX_PATCH_JSON) throw invalidInput("patch", "is larger than 64 KiB of JSON");
}

/** Validate a ChangeSource (kind and optional ids), filling absent ids with null. */
export function checkChangeSource(source: unknown, field: string): Required<ChangeSource> {
  if (!isPlainObject(source)) throw invalidInput(field, `must be an object with a kind (${CHANGE_SOURCE_KINDS.join(", ")})`);
  const s = source as Partial<ChangeSource>;
  if (!CHANGE_SOURCE_KINDS.includes(s.kind as ChangeSource["kind"])) throw invalidInput(`${field}.kind`, `must be one of ${CHANGE_SOURCE_KINDS.join(", ")}`);
  const id = (v: unknown, name: string): string | null => {
    if (v === undefined || v === null) return null;
    if (typeof v !== "string" || v.length > 1024 || v.includes("\0")) throw invalidInput(`${field}.${name}`, "must be a string of at most 1024 characters");
    return v;
  };
  return { kind: s.kind!, threadId: id(s.threadId, "threadId"), messageId: id(s.messageId, "messageId"), runId: id(s.runId, "runId") };
}

function profileFromRow(r: ProfileRow): Profile {
  return {
    tenantId: r.tenant_id,
    userId: r.user_id,
    document: parseJson(r.document) as ProfileDocument,
    sources: parseJson(r.sources) as Record<string, ProfileFieldSource>,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

function changeFromRow(r: HistoryRow): ProfileChange {
  return {
    id: r.id,
    field: r.field,
    // jsonb comes back parsed on both drivers (SQL NULL = the field was absent).
    oldValue: r.old_value === null ? undefined : r.old_value,
    newValue: r.new_value === null ? undefined : r.new_value,
    source: { kind: r.source_kind as ChangeSource["kind"], threadId: r.source_thread_id, messageId: r.source_message_id, runId: r.source_run_id },
    createdAt: toDate(r.created_at),
  };
}

function parseJson(v: unknown): Record<string, unknown> {
  return typeof v === "string" ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown>);
}

function jsonOrNull(v: unknown): string | null {
  return v === undefined ? null : JSON.stringify(v);
}

function checkPlainObject(v: unknown, field: string): Record<string, unknown> {
  if (!isPlainObject(v)) throw invalidInput(field, "must be a plain JSON object");
  return v;
}

function checkIso(v: unknown, field: string): string {
  const d = typeof v === "string" ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw invalidInput(field, "must be an ISO date string");
  return d.toISOString();
}

function toDate(v: Date | string): Date {
  return v instanceof Date ? v : new Date(v);
}
