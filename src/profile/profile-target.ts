/**
 * What the profile offers the write path: the write path (src/extraction) drives it through this
 * shape, so tests and apps can pass their own; `ProfileStore` is one.
 */
import type { ChangeSource } from "../core/change-source.js";
import type { UserScope } from "../core/scope.js";

/** The user's profile document (one per tenant + user). */
export interface ProfileTarget {
  /**
   * Merge-patch the profile (RFC 7396: `null` removes a field) after validating it against the
   * app's profile schema; records who wrote each field. Fields the schema does not know are an
   * INVALID_INPUT error (callers map candidates to known fields first).
   */
  applyPatch(scope: UserScope, patch: Record<string, unknown>, source: ChangeSource): Promise<void>;
  /** The profile fields extraction may write, e.g. `["name", "timezone", "units", …]`. */
  readonly fields: readonly string[];
  /**
   * The user's profile document (null: none). Optional: with it, a statement that a field's value
   * is no longer true ("I don't work at Acme any more") removes the field.
   */
  getDocument?(scope: UserScope): Promise<Record<string, unknown> | null>;
}
