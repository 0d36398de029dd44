// Jest global setup (plain JS: jest loads it outside its TS transform).
import { execFileSync } from "node:child_process";

export default async function globalSetup() {
  execFileSync(process.execPath, ["--import", "tsx", "test/helpers/build-pglite-template.ts"], { stdio: "inherit" });
  console.log(
    process.env.DATABASE_URL
      ? "\n[test] data-layer tests run on PGlite and on server Postgres (DATABASE_URL)"
      : "\n[test] DATABASE_URL is not set: data-layer tests run on PGlite only (server Postgres tests are skipped)",
  );
}
