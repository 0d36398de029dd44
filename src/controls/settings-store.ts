import type { Database, Queryable } from "../db/database.js";
import { invalidInput } from "../errors.js";
import { resolveUserScope, type UserScope } from "../core/scope.js";
import type { SettingsTarget } from "./settings-target.js";
import { readOptedOut } from "../store/opt-out.js";
import { CLEAR_OPTED_OUT_SQL, IMPORT_SETTINGS_SQL, SELECT_SETTINGS_SQL, SET_OPTED_OUT_SQL } from "./settings-store-queries.js";

/** A user's memory settings (defaults when none are stored). */
export interface MemorySettings {
  optedOut: boolean;
  optedOutAt: Date | null;
  /** Null when nothing was ever stored for the user. */
  updatedAt: Date | null;
}

/** Settings as exported (null = none stored). */
export interface ExportedSettings {
  optedOut: boolean;
  optedOutAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface SettingsRow {
  opted_out: boolean;
  opted_out_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * The user's memory settings (table `memory_settings`): today the opt-out flag. Implements the
 * write path's {@link SettingsTarget}. The flag is enforced by the stores themselves (see
 * `src/store/opt-out.ts`); this class reads and sets it.
 *
 * @example
 * const settings = new MemorySettingsStore(db);
 * await settings.setOptedOut(alice, true);
 * await settings.isOptedOut(alice); // true
 */
export class MemorySettingsStore implements SettingsTarget {
  constructor(readonly db: Database) {}

  /** True while the user has opted out. {@link SettingsTarget} method. */
  async isOptedOut(scope: UserScope): Promise<boolean> {
    const s = resolveUserScope(scope);
    return this.db.transaction((tx) => readOptedOut(tx, s), { scope: s });
  }

  async get(scope: UserScope): Promise<MemorySettings> {
    const s = resolveUserScope(scope);
    return this.db.transaction(async (tx) => {
      const row = await readRow(tx, s);
      return row
        ? { optedOut: row.opted_out, optedOutAt: toDate(row.opted_out_at), updatedAt: toDate(row.updated_at) }
        : { optedOut: false, optedOutAt: null, updatedAt: null };
    }, { scope: s });
  }

  /** Set or clear the opt-out flag; returns whether it changed. */
  async setOptedOut(scope: UserScope, optedOut: boolean): Promise<boolean> {
    const s = resolveUserScope(scope);
    if (typeof optedOut !== "boolean") throw invalidInput("optedOut", "must be true or false");
    return this.db.transaction((tx) => setOptedOutIn(tx, s, optedOut), { scope: s });
  }

  /** Inside a scoped transaction: the stored settings, or null. */
  async exportIn(tx: Queryable, s: UserScope): Promise<ExportedSettings | null> {
    const row = await readRow(tx, s);
    return row
      ? { optedOut: row.opted_out, optedOutAt: toDate(row.opted_out_at)?.toISOString() ?? null, createdAt: toDate(row.created_at)!.toISOString(), updatedAt: toDate(row.updated_at)!.toISOString() }
      : null;
  }

  /** Inside a scoped transaction: restore exported settings as they were. */
  async importIn(tx: Queryable, s: UserScope, data: ExportedSettings): Promise<void> {
    if (!data || typeof data !== "object" || typeof data.optedOut !== "boolean") throw invalidInput("settings", "must be exported settings ({ optedOut, optedOutAt, createdAt, updatedAt })");
    const date = (v: unknown, field: string, nullable: boolean) => {
      if (v === null && nullable) return null;
      const d = typeof v === "string" ? new Date(v) : undefined;
      if (!d || Number.isNaN(d.getTime())) throw invalidInput(field, "must be an ISO date string");
      return d.toISOString();
    };
    await tx.query(
      IMPORT_SETTINGS_SQL,
      [s.tenantId, s.userId, data.optedOut, date(data.optedOutAt, "settings.optedOutAt", true), date(data.createdAt, "settings.createdAt", false), date(data.updatedAt, "settings.updatedAt", false)],
    );
  }
}

/** Inside a scoped transaction: set or clear opt-out (waits for writes holding the row FOR SHARE). */
export async function setOptedOutIn(tx: Queryable, s: UserScope, optedOut: boolean): Promise<boolean> {
  if (!optedOut) {
    const { rowCount } = await tx.query(
      CLEAR_OPTED_OUT_SQL,
      [s.tenantId, s.userId],
    );
    return rowCount > 0;
  }
  const { rows } = await tx.query<{ changed: boolean }>(
    SET_OPTED_OUT_SQL,
    [s.tenantId, s.userId],
  );
  return rows.length > 0;
}

async function readRow(tx: Queryable, s: UserScope): Promise<SettingsRow | undefined> {
  const { rows } = await tx.query<SettingsRow>(SELECT_SETTINGS_SQL, [
    s.tenantId,
    s.userId,
  ]);
  return rows[0];
}

function toDate(v: Date | string | null): Date | null {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v : new Date(v);
}
