/**
 * The layering of docs/architecture.md, held against the code's own imports: every import between
 * files of src/ (value and type imports, re-exports, literal dynamic imports) is read with the
 * TypeScript parser. No set of files imports each other in a circle, and a module imports only
 * modules on lower layers (or on its own layer, without a circle between them) — except the
 * arrows listed in UPWARD, each with its reason, as docs/architecture.md gives it.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/** Bottom first: a module (a folder of src/, or a file at its root) may import its own layer or lower ones. */
const LAYERS: readonly (readonly string[])[] = [
  ["errors.ts", "state", "cache"],
  ["core", "config.ts", "sensitive", "language", "rule-extractor", "tokens", "models"],
  ["db", "embeddings", "summarization", "skill"],
  ["store", "threads", "jobs", "context"],
  ["checkpointer", "retrieval", "profile", "status"],
  ["sessions", "procedural"],
  ["forgetting"],
  ["controls"],
  ["extraction", "retention"],
  ["tools", "memory.ts", "server"],
  ["graph", "studio"],
  ["exports", "index.ts", "cli"],
];

/** Imports that run up a layer, with why they stay (docs/architecture.md, "Measured"). */
const UPWARD: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The files of src/ that `file` imports (relative specifiers only; packages are outside). */
function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts")))
    .filter((target) => known.has(target));
}

function moduleOf(file: string): string {
  return relative(SRC, file).split("/")[0];
}

const files = sourceFiles(SRC);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
const layerOf = new Map(LAYERS.flatMap((mods, i) => mods.map((m) => [m, i] as const)));

/** Strongly connected components of more than one file (Tarjan). */
function circles(): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(relative(ROOT, w));
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return out;
}

describe("the layers of docs/architecture.md hold in the code", () => {
  it("reads the imports (the check sees the code it guards)", () => {
    expect(files.length).toBeGreaterThan(300);
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    expect(edges).toBeGreaterThan(1000);
  });

  it("places every module of src/ on a layer", () => {
    expect([...new Set(files.map(moduleOf))].filter((m) => !layerOf.has(m)).sort()).toEqual([]);
  });

  it("no files import each other in a circle", () => {
    expect(circles()).toEqual([]);
  });

  it("every import goes down a layer or stays on its own, but for the arrows listed with their reason", () => {
    const up = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = moduleOf(file);
        const to = moduleOf(target);
        if (from === to || layerOf.get(to)! <= layerOf.get(from)!) continue;
        const key = `${from} -> ${to}`;
        up.set(key, [...(up.get(key) ?? []), `${relative(ROOT, file)} -> ${relative(ROOT, target)}`]);
      }
    }
    expect([...up.keys()].filter((k) => !(k in UPWARD)).map((k) => `${k}: ${up.get(k)!.join(", ")}`)).toEqual([]);
    // A listed arrow that no longer exists is taken off the list (and the docs).
    expect(Object.keys(UPWARD).filter((k) => !up.has(k))).toEqual([]);
  });

  it("no two modules import each other both ways (but for a listed arrow)", () => {
    const pairs = new Set<string>();
    for (const [file, targets] of graph) for (const t of targets) if (moduleOf(file) !== moduleOf(t)) pairs.add(`${moduleOf(file)} -> ${moduleOf(t)}`);
    const both = [...pairs].filter((p) => {
      const [a, b] = p.split(" -> ");
      return a < b && pairs.has(`${b} -> ${a}`) && !(p in UPWARD) && !(`${b} -> ${a}` in UPWARD);
    });
    expect(both).toEqual([]);
  });
});
