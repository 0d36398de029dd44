import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "./database.js";
import type { PGliteLike } from "./pglite-like.js";
import { migrate } from "./migrate.js";
import { loadMigrations } from "./migrations.js";
import { personalizeTemplateCopy } from "./pglite-template-queries.js";

/** Bumped when what a template holds or how it is stored changes. */
const TEMPLATE_FORMAT = 1;
/** Templates kept in the cache folder (40 MB each), the most recently used: one per schema and release. */
const KEEP_TEMPLATES = 4;

/** What `PgliteDatabase.open` is given; the template module opens through it (no import cycle). */
export interface PgliteOpenOptions {
  dataDir?: string;
  schema: string;
  loadDataDir?: Blob;
  onClose?: () => void;
  /** Put a layer between the database and PGlite (the shared data folder's session gate); never on the template's own build. */
  wrap?: (pglite: PGlite) => PGliteLike;
}

/** The slice of PgliteDatabase this module needs. */
export type TemplateDatabase = Database & { readonly pglite: Pick<PGlite, "close" | "dumpDataDir"> };
type Opener = (options: PgliteOpenOptions) => Promise<TemplateDatabase>;

interface TemplateMeta {
  key: string;
  bytes: number;
  sha256: string;
}

/**
 * Where templates are kept: `LANGGRAPH_MEMORY_TEMPLATE_DIR`, else the user's cache folder
 * (`$XDG_CACHE_HOME` or `~/.cache`, `%LOCALAPPDATA%` on Windows) under `langgraph-memory/`.
 * `LANGGRAPH_MEMORY_TEMPLATE_DIR=off` turns templates off. Undefined when off.
 */
export function templateCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.LANGGRAPH_MEMORY_TEMPLATE_DIR?.trim();
  if (configured === "off" || configured === "0" || configured === "false") return undefined;
  if (configured) return resolve(configured);
  const base = env.XDG_CACHE_HOME || (process.platform === "win32" && env.LOCALAPPDATA) || join(homedir(), ".cache");
  return join(base, "langgraph-memory", "pglite-templates");
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === name) return String(pkg.version);
    }
    const parent = dirname(dir);
    if (parent === dir) return "unknown";
    dir = parent;
  }
}

/**
 * The template's name: a hash of everything its contents depend on — the engine (PGlite and
 * pgvector releases), the schema and every migration (id, name, checksum). Any change gives
 * another name, so a stale template is never found.
 */
export function templateKey(schema: string, migrations = loadMigrations()): string {
  const parts = {
    format: TEMPLATE_FORMAT,
    pglite: packageVersion("@electric-sql/pglite"),
    pgvector: packageVersion("@electric-sql/pglite-pgvector"),
    schema,
    migrations: migrations.map((m) => [m.id, m.name, m.checksum]),
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/** Templates read and checked in this process (path → size and mtime then), so a re-read skips the hash. */
const verified = new Map<string, string>();
/** Templates built in this process that could not be saved (read-only cache folder). */
const unsaved = new Map<string, Uint8Array>();

function readTemplate(dir: string, key: string): Uint8Array | undefined {
  const tarPath = join(dir, `${key}.tar`);
  let meta: TemplateMeta;
  let tar: Buffer;
  try {
    meta = JSON.parse(readFileSync(join(dir, `${key}.json`), "utf8")) as TemplateMeta;
    tar = readFileSync(tarPath);
  } catch {
    return undefined;
  }
  const stamp = (() => {
    const s = statSync(tarPath);
    return `${s.size}:${s.mtimeMs}`;
  })();
  if (verified.get(tarPath) === stamp) return tar;
  if (meta.key !== key || meta.bytes !== tar.length || createHash("sha256").update(tar).digest("hex") !== meta.sha256) {
    discardTemplate(dir, key);
    return undefined;
  }
  verified.set(tarPath, stamp);
  touch(join(dir, `${key}.json`));
  return tar;
}

/** Store `tar` (a `dumpDataDir` tar) as the template named `key` in `dir`. */
export function saveTemplate(dir: string, key: string, tar: Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const meta: TemplateMeta = { key, bytes: tar.length, sha256: createHash("sha256").update(tar).digest("hex") };
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  // The tar first, then the meta that vouches for it, each renamed into place whole: a reader
  // never sees a half-written template, and concurrent builders just replace each other's.
  writeFileSync(join(dir, `${key}.tar${suffix}`), tar);
  renameSync(join(dir, `${key}.tar${suffix}`), join(dir, `${key}.tar`));
  writeFileSync(join(dir, `${key}.json${suffix}`), JSON.stringify(meta));
  renameSync(join(dir, `${key}.json${suffix}`), join(dir, `${key}.json`));
  try {
    pruneTemplates(dir);
  } catch {
    // another process pruned at the same moment
  }
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache folder: the template is still used, only pruning order is off
  }
}

/** Drop all but the KEEP_TEMPLATES most recently used templates (stale releases, other schemas). */
function pruneTemplates(dir: string): void {
  const files = readdirSync(dir);
  // Leftovers of writers that died mid-write.
  for (const f of files) if (f.endsWith(".tmp") && Date.now() - statSync(join(dir, f)).mtimeMs > 3_600_000) rmSync(join(dir, f), { force: true });
  const metas = files
    .filter((f) => /^[0-9a-f]{32}\.json$/.test(f))
    .map((f) => ({ key: f.slice(0, -5), used: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { key } of metas.slice(KEEP_TEMPLATES)) discardTemplate(dir, key);
}

function discardTemplate(dir: string, key: string): void {
  unsaved.delete(key);
  for (const ext of ["json", "tar"]) rmSync(join(dir, `${key}.${ext}`), { force: true });
  verified.delete(join(dir, `${key}.tar`));
}

/** A fresh in-memory database, migrated, checkpointed and dumped (`dumpDataDir`, a tar). */
async function buildTemplate(schema: string, open: Opener): Promise<Uint8Array> {
  const db = await open({ schema });
  try {
    await migrate(db);
    // A checkpoint first, so a database restored from the dump has no WAL to replay.
    await db.exec("CHECKPOINT");
    return new Uint8Array(await (await db.pglite.dumpDataDir("none")).arrayBuffer());
  } finally {
    await db.pglite.close();
  }
}

const building = new Map<string, Promise<Uint8Array>>();

async function templateFor(dir: string, key: string, schema: string, open: Opener): Promise<Uint8Array> {
  const found = readTemplate(dir, key) ?? unsaved.get(key);
  if (found) return found;
  let pending = building.get(key);
  if (!pending) {
    pending = buildTemplate(schema, open).then((tar) => {
      try {
        saveTemplate(dir, key, tar);
      } catch {
        unsaved.set(key, tar); // the cache folder is not writable: this process still reuses it
      }
      return tar;
    });
    building.set(key, pending);
    pending.finally(() => building.delete(key)).catch(() => undefined);
  }
  return pending;
}

interface TarEntry {
  /** Path inside the data folder, without a leading slash. */
  name: string;
  type: "file" | "dir";
  data: Uint8Array;
}

/**
 * The entries of a `dumpDataDir` tar (ustar headers, as PGlite writes them). Throws on anything
 * malformed, so a damaged template never reaches PGlite (whose loader cannot recover from it).
 */
function tarEntries(tar: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  for (; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const name = cString(header.subarray(0, 100)).replace(/^\/+/, "");
    const sizeField = cString(header.subarray(124, 136)).trim();
    const size = /^[0-7]+$/.test(sizeField) ? Number.parseInt(sizeField, 8) : Number.NaN;
    const type = header[156] === 0x35 ? "dir" : header[156] === 0x30 || header[156] === 0 ? "file" : undefined;
    const magic = cString(header.subarray(257, 262));
    offset += 512;
    if (magic !== "ustar" || !type || !Number.isFinite(size) || offset + size > tar.length || name.split("/").some((part) => part === "..")) {
      throw new Error(`the template tar is damaged at byte ${offset - 512}`);
    }
    entries.push({ name, type, data: tar.subarray(offset, offset + size) });
    offset += Math.ceil(size / 512) * 512;
  }
  if (!entries.some((e) => e.name === "PG_VERSION" && e.type === "file")) throw new Error("the template tar holds no PG_VERSION");
  return entries;
}

/** Write the template's files into a data folder holding no database, PG_VERSION last (its presence marks a database). */
function extractInto(entries: TarEntry[], dataDir: string): string[] {
  const root = resolve(dataDir);
  const written: string[] = [];
  const ordered = [...entries.filter((e) => e.name !== "PG_VERSION"), ...entries.filter((e) => e.name === "PG_VERSION")];
  for (const entry of ordered) {
    const path = resolve(root, entry.name);
    if (path !== root && !path.startsWith(root + sep)) throw new Error(`the template tar names a path outside the folder: ${entry.name}`);
    if (entry.type === "dir") {
      mkdirSync(path, { recursive: true });
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, entry.data);
    written.push(path);
  }
  return written;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return Buffer.from(end === -1 ? bytes : bytes.subarray(0, end)).toString("utf8");
}

/**
 * Open a new embedded database from the migrated template instead of running initdb and every
 * migration (seconds): restored into memory for `memory://`, or written into a data folder that
 * holds no database yet. The template is built once per machine (and per PGlite release, schema
 * and set of migrations) in the cache folder, on the first open that needs it. A folder that
 * already holds a database opens as before. The copy gets its own seal keys. A template that
 * cannot be read, built or opened is discarded, and the database is made the usual way.
 *
 * @example
 * const db = await openFromTemplate({ dataDir: "./.langgraph-memory", schema: "public" }, PgliteDatabase.open);
 */
export async function openFromTemplate(options: PgliteOpenOptions, open: Opener): Promise<TemplateDatabase> {
  const dir = templateCacheDir();
  const fresh = !options.dataDir || !existsSync(join(options.dataDir, "PG_VERSION"));
  if (!dir || !fresh) return open(options);
  const key = templateKey(options.schema);
  let tar: Uint8Array;
  try {
    tar = await templateFor(dir, key, options.schema, open);
  } catch {
    return open(options);
  }
  let db: TemplateDatabase | undefined;
  let written: string[] = [];
  try {
    const entries = tarEntries(tar);
    if (options.dataDir) written = extractInto(entries, options.dataDir);
    db = await open({ ...options, loadDataDir: options.dataDir ? undefined : new Blob([tar]) });
    const copy = db;
    await copy.transaction((tx) => personalizeTemplateCopy(tx, copy.schemaSql));
    return copy;
  } catch {
    // Closed under the caller's onClose: the folder stays locked for the fallback below.
    await db?.pglite.close().catch(() => undefined);
    discardTemplate(dir, key);
    for (const path of written.reverse()) rmSync(path, { force: true });
    return open(options);
  }
}
