import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../../src/db/open.js";
import type { Database } from "../../src/db/database.js";

/**
 * A migrated embedded database, dumped once: every scenario restores it into a fresh in-memory
 * PGlite (about half a second) instead of running initdb and the migrations again (seconds).
 */
export class DatabaseTemplate {
  private constructor(private readonly dump: Blob) {}

  static async create(): Promise<DatabaseTemplate> {
    const db = await openDatabase("memory://");
    try {
      const pglite = (db as unknown as { pglite?: PGlite }).pglite;
      if (!pglite) throw new Error("the embedded database does not expose its PGlite instance");
      return new DatabaseTemplate(await pglite.dumpDataDir("none"));
    } finally {
      await db.close();
    }
  }

  /** A template from a dump of a migrated embedded database (`PGlite.dumpDataDir`), e.g. one built once for a test run. */
  static fromDump(dump: Blob): DatabaseTemplate {
    return new DatabaseTemplate(dump);
  }

  /** The dump itself (to hand the template to another process). */
  toDump(): Blob {
    return this.dump;
  }

  /** A fresh database restored from the template (the caller closes it). */
  open(): Promise<Database> {
    return openDatabase("memory://", { loadDataDir: this.dump });
  }
}
