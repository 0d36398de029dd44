import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLITE_TEMPLATE_PATH } from "./engines.js";
import { openDatabase } from "../../src/db/open.js";

/**
 * Build an embedded database with every migration applied and dump it, so each test file
 * restores it (~0.5 s) instead of running initdb (~2–5 s). Run by jest's global setup.
 */
async function buildTemplate(): Promise<void> {
  const db = await openDatabase("memory://");
  const pglite = (db as unknown as { pglite: PGlite }).pglite;
  const dump = await pglite.dumpDataDir("none");
  mkdirSync(join(PGLITE_TEMPLATE_PATH, ".."), { recursive: true });
  // Atomic: concurrent jest runs may read the template while this one writes it.
  const tmp = `${PGLITE_TEMPLATE_PATH}.${process.pid}`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, PGLITE_TEMPLATE_PATH);
  await db.close();
}

await buildTemplate();
