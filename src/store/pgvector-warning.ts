import type { Database } from "../db/database.js";

let warned = false;

/**
 * Say once per process that similarity runs without pgvector (exact scoring of each scope's rows
 * in plain SQL: same results, slower on large tenant or global scopes).
 */
export function warnOnceWithoutPgvector(db: Database, warn: (message: string) => void = console.warn): void {
  if (warned || db.capabilities.pgvector || db.capabilities.serverVersion === "") return;
  warned = true;
  warn(
    `langgraph-memory: the database (${db.engine} ${db.capabilities.serverVersion}) has no pgvector extension; ` +
      "memory similarity is computed exactly in SQL over each scope's rows (same results; install pgvector for faster large scopes)",
  );
}
