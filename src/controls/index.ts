/** User controls: inspect, edit, delete, export/import, opt-out (docs/controls.md); database roles for RLS (docs/operations.md). */
export {
  MemoryControls,
  type MemoryControlsOptions,
  type ControlCallOptions,
  type MemoryInspection,
  type InspectedMemory,
  type MemoryLifecycleStatus,
  type ImportResult,
  type DeleteAllRequest,
} from "./memory-controls.js";
export { MemorySettingsStore, type MemorySettings, type ExportedSettings } from "./settings-store.js";
export { USER_EXPORT_FORMAT, USER_EXPORT_VERSION, parseUserExport, type UserExport } from "./user-export.js";
export type { DeletedCounts, ThreadDeletion } from "./user-data.js";
export { grantMemoryRoles, roleGrantStatements, workerMembershipStatements, WORKER_GROUP_ROLE, type RoleGrants } from "./database-roles.js";
export { systemClock, type Clock } from "./clock.js";
