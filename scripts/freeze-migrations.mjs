#!/usr/bin/env node
// At a release: record every migration in migrations/ as released (name → sha256) in
// migrations/released.json. A released migration is frozen: test/integration/migrations-upgrade
// fails when its bytes change, and upgrades a database built from the released set to the
// current one and compares the two schemas. Plain Node.
//
//   node scripts/freeze-migrations.mjs <release-version>
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "migrations");
const release = process.argv[2];
if (!release) {
  console.error("usage: node scripts/freeze-migrations.mjs <release-version>   (e.g. 0.2.0)");
  process.exit(2);
}
const migrations = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => [f.slice(0, -4), createHash("sha256").update(readFileSync(join(dir, f), "utf8")).digest("hex")]),
);
writeFileSync(join(dir, "released.json"), `${JSON.stringify({ release, migrations }, null, 2)}\n`);
console.log(`migrations/released.json: ${Object.keys(migrations).length} migrations frozen as released in ${release}`);
