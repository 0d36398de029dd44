import type { PGlite } from "@electric-sql/pglite";

/** What the embedded database uses of PGlite: PGlite itself, or a layer over it (the shared folder's session gate). */
export type PGliteLike = Pick<PGlite, "query" | "exec" | "transaction" | "close" | "closed" | "dumpDataDir">;
