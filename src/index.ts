// Curated public API of langgraph-memory. Everything exported here is documented and stable.

// Errors and configuration
export { MemoryError, ErrorCodes, isMemoryError, type ErrorCode } from "./errors.js";
export { resolveConfig, ConfigSchema, type ConfigInput, type ResolvedConfig, type Budgets, type RetrievalConfig, type WritePolicyConfig } from "./config.js";

// Database
export { openDatabase, connectDatabase, type OpenDatabaseOptions } from "./db/open.js";
export { migrate, verifyMigrations, type MigrateResult } from "./db/migrate.js";
export type { Database, Queryable, DbScope, Engine, DatabaseCapabilities } from "./db/database.js";
