#!/usr/bin/env node
// The package as a user installs it: build, `npm pack`, check what the tarball holds, then for each
// end of the supported peer range (the lowest declared versions, and the latest within the range)
// install the tarball into a fresh project beside those peers (without the optional ones), compile
// a small app with `tsc --strict` (TypeScript 5.9, library checks on) and run it on embedded PGlite:
// its own wired graph with memory around it, a memory retrieved and extraction scheduled. A resolve
// hook fails the run if importing the library loads the HTTP server's dependencies (fastify).
// `langchain` (an optional peer) is installed too, for the types of memoryMiddleware that the main
// entry exports, but at run time the hook makes it (and @langchain/openai) look absent: the app
// must run without them. Needs the npm registry (or its cache). Plain Node.
//
//   node scripts/test-package.mjs [lowest|latest …] [--no-build] [--keep]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const args = process.argv.slice(2);
const wanted = args.filter((a) => !a.startsWith("--"));
const ends = wanted.length > 0 ? wanted : ["lowest", "latest"];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line) => console.log(`[test-package ${seconds()}] ${line}`);

/** The peers the app installs: the required ones, and langchain for its types (absent at run time). */
const requiredPeers = Object.keys(pkg.peerDependencies).filter((name) => !pkg.peerDependenciesMeta?.[name]?.optional);
const installedPeers = [...requiredPeers, "langchain"];
const absentAtRunTime = ["langchain", "@langchain/openai"];
/** `^1.1.0` → `1.1.0`: the lowest version a range declares (the ranges here are all carets). */
function lowestOf(range) {
  const m = /^\^?(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (!m) throw new Error(`test-package: cannot take the lowest version of the peer range "${range}" (use ^x.y.z)`);
  return m[1];
}
const versionsFor = {
  lowest: (name) => lowestOf(pkg.peerDependencies[name]),
  latest: (name) => pkg.peerDependencies[name],
};

function run(cmd, argv, cwd, extra = {}) {
  return execFileSync(cmd, argv, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...extra });
}

function checkTarball(files) {
  const has = (p) => files.includes(p);
  const problems = [];
  for (const p of ["package.json", "README.md", "LICENSE", "bin/langgraph-memory.js", "dist/src/index.js", "dist/src/index.d.ts", "dist/src/cli/main.js", "static/index.html"]) {
    if (!has(p)) problems.push(`missing ${p}`);
  }
  if (!files.some((f) => /^migrations\/\d{4}_.*\.sql$/.test(f))) problems.push("no migrations/NNNN_*.sql");
  for (const f of files) {
    if (f.endsWith(".map")) problems.push(`source map ${f} (its sources are not shipped)`);
    if (/^(dist\/)?(evals|test|bench)\//.test(f) || /\/locomo[^/]*\.js$/.test(f)) problems.push(`${f}: evals, tests or benchmark runners the library never imports`);
    if (f.endsWith(".ts") && !f.endsWith(".d.ts")) problems.push(`TypeScript source ${f}`);
  }
  if (problems.length > 0) throw new Error(`test-package: the tarball is not right:\n  ${problems.join("\n  ")}`);
}

const work = mkdtempSync(join(tmpdir(), "lgm-package-"));
try {
  // `npm pack` runs the package's prepack (a clean dist/, then the build), as a user's or the
  // registry's pack does; --no-build packs the dist/ already there.
  say(args.includes("--no-build") ? "npm pack --ignore-scripts (the dist/ already built)" : "npm pack (prepack: a clean dist/, then the build)");
  const packArgs = ["pack", "--json", "--pack-destination", work, ...(args.includes("--no-build") ? ["--ignore-scripts"] : [])];
  const packed = JSON.parse(run(npm, packArgs, root))[0];
  const files = packed.files.map((f) => f.path);
  checkTarball(files);
  const tarball = join(work, packed.filename);
  say(`packed ${packed.filename}: ${files.length} files, ${(packed.size / 1024).toFixed(0)} KiB`);

  for (const end of ends) {
    if (!versionsFor[end]) throw new Error(`test-package: unknown end "${end}" (lowest, latest)`);
    const app = join(work, end);
    run("mkdir", ["-p", app], work);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: `lgm-app-${end}`, private: true, type: "module" }, null, 2));
    const peers = installedPeers.map((name) => `${name}@${versionsFor[end](name)}`);
    say(`${end}: npm install ${peers.join(" ")}`);
    run(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", "--strict-peer-deps", tarball, ...peers, "typescript@5.9", "@types/node@20"], app);
    const installed = Object.fromEntries(installedPeers.map((name) => [name, JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8")).version]));
    // One copy of each peer: the app's (a nested copy under the package is what peers prevent).
    for (const name of requiredPeers) {
      let nested = false;
      try {
        readFileSync(join(app, "node_modules/langgraph-memory/node_modules", name, "package.json"));
        nested = true;
      } catch {
        // not nested: as it should be
      }
      if (nested) throw new Error(`test-package: ${end}: langgraph-memory got its own copy of ${name}`);
    }
    copyFileSync(join(root, "scripts/package-app/app.ts"), join(app, "app.ts"));
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, types: ["node"], outDir: "out" }, files: ["app.ts"] }, null, 2),
    );
    say(`${end}: tsc --strict (${Object.entries(installed).map(([n, v]) => `${n} ${v}`).join(", ")})`);
    try {
      run(join(app, "node_modules/.bin/tsc"), ["-p", "."], app);
    } catch (err) {
      throw new Error(`test-package: ${end}: the app does not compile:\n${err.stdout || err.stderr || err.message}`);
    }
    writeFileSync(
      join(app, "no-server.mjs"),
      `import { register } from "node:module";\nregister("data:text/javascript," + encodeURIComponent(${JSON.stringify(
        `const absent = ${JSON.stringify(absentAtRunTime)};\n` +
          'export async function resolve(s, c, next) {\n' +
          '  if (s === "fastify" || s.startsWith("fastify/")) throw new Error("importing langgraph-memory loaded fastify (the HTTP server loads only when one is created)");\n' +
          '  if (absent.some((p) => s === p || s.startsWith(p + "/"))) throw Object.assign(new Error(`Cannot find package \'${s}\' imported from ${c.parentURL}`), { code: "ERR_MODULE_NOT_FOUND" });\n' +
          "  return next(s, c);\n}",
      )}));\n`,
    );
    let output;
    try {
      output = run(process.execPath, ["--import", "./no-server.mjs", "out/app.js"], app, { env: { ...process.env, MODEL: "", EMBEDDINGS: "" } });
    } catch (err) {
      throw new Error(`test-package: ${end}: the app failed:\n${err.stderr || err.stdout || err.message}`);
    }
    const result = JSON.parse(output.trim().split("\n").pop());
    say(`${end}: ok — ${JSON.stringify(result)}`);
  }
  say(`${ends.length} passed, 0 failed`);
} catch (err) {
  console.error(err.message ?? err);
  say(`0 passed, 1 failed`);
  process.exitCode = 1;
} finally {
  if (args.includes("--keep")) say(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
