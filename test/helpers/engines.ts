import { join } from "node:path";

export type TestEngine = "pglite" | "postgres";

/** Where global setup leaves the migrated PGlite template. */
export const PGLITE_TEMPLATE_PATH = join(process.cwd(), ".tmp", "pglite-template.tar");

/** Engines the data-layer tests run on: PGlite always, server Postgres when DATABASE_URL is set. */
export function testEngines(): TestEngine[] {
  return process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}
