import { resolveConfig } from "../config.js";
import { openDatabase } from "../db/open.js";
import type { Database } from "../db/database.js";
import { createEmbeddings } from "../embeddings/create-embeddings.js";
import { ErrorCodes, MemoryError } from "../errors.js";
import { SCOPE_OPTIONS } from "./scope-options.js";
import { MemoryRepository } from "../store/memory-store.js";
import { ProfileStore } from "../profile/profile-store.js";
import { RuleStore } from "../procedural/rule-store.js";
import { MemorySettingsStore } from "../controls/settings-store.js";
import { MemoryControls } from "../controls/memory-controls.js";

/** Options of the per-user commands (`memories`, `profile`, `rules`), besides the database ones. */
export const USER_OPTIONS = {
  ...SCOPE_OPTIONS,
  embeddings: { type: "string" },
  json: { type: "boolean" },
} as const;

/** Audit label of deletions made from the command line. */
export const CLI_ACTOR = "cli";

/**
 * Open the database (embedded default unless --database-url) and the user controls on it, with the
 * configured embedder (edits are re-embedded, so it must match what the store holds). No chat
 * model: nothing here calls one.
 */
export async function openUserControls(values: { "database-url"?: string; schema?: string; embeddings?: string }): Promise<{ db: Database; controls: MemoryControls; close(): Promise<void> }> {
  const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema, embeddings: values.embeddings });
  const embeddings = await createEmbeddings(config.embeddings);
  const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir, poolMax: config.poolMax });
  const store = new MemoryRepository(db, { embeddings, retrieval: config.retrieval, writePolicy: config.writePolicy });
  const controls = new MemoryControls(db, { store, profiles: new ProfileStore(db), rules: new RuleStore(db), settings: new MemorySettingsStore(db) });
  return { db, controls, close: () => db.close() };
}

/** Split `memories <sub> …` into the subcommand and its arguments. */
export function subcommand(argv: string[], names: readonly string[], command: string): { sub: string | undefined; rest: string[] } {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") return { sub: undefined, rest: [] };
  if (!names.includes(sub)) throw new MemoryError(ErrorCodes.INVALID_INPUT, `unknown subcommand "${sub}" of ${command}; one of: ${names.join(", ")}`);
  return { sub, rest };
}
