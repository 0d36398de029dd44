/** The user profile: one schema-validated JSON document per tenant + user (docs/controls.md). */
export { ProfileStore, checkChangeSource, CHANGE_SOURCE_KINDS, type Profile, type ProfileChange, type ProfileFieldSource, type ProfileStoreOptions, type ExportedProfile, type ExportedProfileChange } from "./profile-store.js";
export { DefaultProfileSchema, DEFAULT_PROFILE_PRIORITIES, resolveProfileSchema, validateProfile, isTimeZone, isLanguageTag, type ProfileSchemaDefinition, type ResolvedProfileSchema } from "./profile-schema.js";
export { mergePatch, changedFields } from "../core/json.js";
