/** What the memory settings offer the write path and the load node; `MemorySettingsStore` is one. */
import type { UserScope } from "../core/scope.js";

/** The user's memory settings (opt-out). */
export interface SettingsTarget {
  /** True while the user has opted out: nothing is read or written for them. */
  isOptedOut(scope: UserScope): Promise<boolean>;
}
