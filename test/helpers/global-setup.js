// Jest global setup (plain JS: jest loads it outside its TS transform).
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default async function globalSetup() {
  // Embedded databases opened by tests start from the migrated template (src/db/pglite-template.ts),
  // kept under the repository's .tmp/ rather than the user's cache folder. Workers inherit it.
  process.env.LANGGRAPH_MEMORY_TEMPLATE_DIR ??= join(process.cwd(), ".tmp", "pglite-templates");
  execFileSync(process.execPath, ["--import", "tsx", "test/helpers/build-pglite-template.ts"], { stdio: "inherit" });
  console.log(
    process.env.DATABASE_URL
      ? "\n[test] data-layer tests run on PGlite and on server Postgres (DATABASE_URL)"
      : "\n[test] DATABASE_URL is not set: data-layer tests run on PGlite only (server Postgres tests are skipped)",
  );
}
