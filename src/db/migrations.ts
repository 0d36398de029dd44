import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

export interface MigrationFile {
  /** The number in the file name: 0001_init.sql → 1. */
  id: number;
  /** File name without `.sql`, e.g. "0001_init". */
  name: string;
  sql: string;
  /** sha256 of the file's bytes. */
  checksum: string;
}

const FILE_PATTERN = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** The migrations shipped with the package, in order. Numbering never depends on configuration. */
export function loadMigrations(dir = join(packageRoot(), "migrations")): MigrationFile[] {
  const files = readdirSync(dir).filter((f) => f.endsWith(".sql")).sort();
  const migrations = files.map((file) => {
    const m = FILE_PATTERN.exec(file);
    if (!m) throw new Error(`migration file name ${file} must look like 0001_name.sql (lowercase, digits, underscores)`);
    const sql = readFileSync(join(dir, file), "utf8");
    return { id: Number(m[1]), name: file.slice(0, -4), sql, checksum: createHash("sha256").update(sql).digest("hex") };
  });
  migrations.forEach((m, i) => {
    if (m.id !== i + 1) throw new Error(`migrations must be numbered 0001, 0002, … without gaps; found ${m.name} at position ${i + 1}`);
  });
  return migrations;
}
