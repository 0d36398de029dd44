#!/usr/bin/env node
// The checked API report: one file per entry point of package.json "exports" (api/<entry>.api.md)
// listing every exported name with its kind and its signature as the TypeScript compiler resolves
// it. `npm run api:check` fails when the code's surface differs from the committed reports, so a
// change to the public API is always a reviewed diff; `npm run api:update` rewrites them.
//
//   node scripts/api-report.mjs            check (exit 1 and name what changed when they differ)
//   node scripts/api-report.mjs --write    write api/*.api.md from the code
//
// It reads the sources (src/**.ts), not dist/, so it needs no build; only the types an export
// reaches are resolved, which keeps it to seconds.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const apiDir = join(root, "api");
const write = process.argv.includes("--write");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Each entry point: its report's name and the source file behind its `import` target. */
function entryPoints() {
  const entries = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== "object" || !target.import) continue;
    const source = target.import.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
    const name = subpath === "." ? pkg.name : `${pkg.name}-${subpath.slice(2).replace(/\//g, "-")}`;
    entries.push({ subpath: subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, name, file: join(root, source) });
  }
  return entries;
}

const entries = entryPoints();
const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), { types: ["node"], noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: entries.map((e) => e.file), options: config.options });
const checker = program.getTypeChecker();
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** A name the compiler can only reach by `import("/abs/path").Name` is printed as `Name`: no machine's paths in the report. */
const portable = (text) => text.replace(/import\("[^"]*"\)\./g, "");
const typeText = (type, node) => portable(checker.typeToString(type, node, FLAGS));
const signatureText = (sig, node) => portable(checker.signatureToString(sig, node, FLAGS));

/** The type parameters of a declaration, as written. */
function typeParams(decl) {
  const params = decl.typeParameters;
  return params && params.length > 0 ? `<${params.map((p) => p.getText()).join(", ")}>` : "";
}

/** A property or method line of an interface or class. */
function memberLines(symbols, node) {
  const lines = [];
  for (const member of symbols) {
    const decl = member.valueDeclaration ?? member.declarations?.[0];
    if (!decl) continue;
    const modifiers = ts.getCombinedModifierFlags(decl);
    if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || member.name.startsWith("#")) continue;
    const ro = modifiers & ts.ModifierFlags.Readonly ? "readonly " : "";
    const opt = member.flags & ts.SymbolFlags.Optional ? "?" : "";
    const type = checker.getTypeOfSymbolAtLocation(member, node);
    if (member.flags & ts.SymbolFlags.Method) {
      for (const sig of type.getCallSignatures()) lines.push(`  ${member.name}${opt}${signatureText(sig, node)};`);
    } else {
      lines.push(`  ${ro}${member.name}${opt}: ${typeText(type, node)};`);
    }
  }
  return lines;
}

/** The report text of one exported symbol: its kind and resolved signature. */
function describe(exported) {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
  const name = exported.name;
  const out = [];
  if (symbol.flags & ts.SymbolFlags.Class) {
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    const bases = (instance.getBaseTypes?.() ?? []).map((b) => typeText(b, decl));
    out.push(`class ${name}${typeParams(decl)}${bases.length ? ` extends ${bases.join(", ")}` : ""} {`);
    const ctorType = checker.getTypeOfSymbolAtLocation(symbol, decl);
    for (const sig of ctorType.getConstructSignatures()) {
      const text = signatureText(sig, decl);
      const returns = `: ${typeText(sig.getReturnType(), decl)}`;
      out.push(`  constructor${text.endsWith(returns) ? text.slice(0, -returns.length) : text};`);
    }
    const statics = checker.getPropertiesOfType(ctorType).filter((p) => p.name !== "prototype");
    out.push(...memberLines(statics, decl).map((l) => `  static${l.slice(1)}`));
    out.push(...memberLines(checker.getPropertiesOfType(instance), decl));
    out.push("}");
  } else if (symbol.flags & ts.SymbolFlags.Interface) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    out.push(`interface ${name}${typeParams(decl)} {`);
    for (const sig of type.getCallSignatures()) out.push(`  ${signatureText(sig, decl)};`);
    out.push(...memberLines(checker.getPropertiesOfType(type), decl));
    const index = checker.getIndexInfosOfType(type);
    for (const info of index) out.push(`  [key: ${typeText(info.keyType, decl)}]: ${typeText(info.type, decl)};`);
    out.push("}");
  } else if (symbol.flags & ts.SymbolFlags.TypeAlias) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    out.push(`type ${name}${typeParams(decl)} = ${portable(checker.typeToString(type, decl, FLAGS | ts.TypeFormatFlags.InTypeAlias))};`);
  } else if (symbol.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    for (const sig of type.getCallSignatures()) out.push(`function ${name}${signatureText(sig, decl)};`);
  } else if (symbol.flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    out.push(`const ${name}: ${typeText(type, decl)};`);
  } else {
    out.push(`${ts.SymbolFlags[symbol.flags] ?? symbol.flags} ${name};`);
  }
  // A name that is both a value and a type (a zod schema and its inferred type, say) shows both.
  if (symbol.flags & ts.SymbolFlags.Variable && symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface)) {
    out.push(`type ${name} = ${portable(checker.typeToString(checker.getDeclaredTypeOfSymbol(symbol), decl, FLAGS | ts.TypeFormatFlags.InTypeAlias))};`);
  }
  return { name, text: out.join("\n") };
}

/** The whole report of one entry point. */
function report(entry) {
  const source = program.getSourceFile(entry.file);
  if (!source) throw new Error(`api-report: ${relative(root, entry.file)} (package.json exports ${entry.subpath}) does not exist`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exports = checker.getExportsOfModule(moduleSymbol).map(describe).sort((a, b) => a.name.localeCompare(b.name, "en"));
  const lines = [
    `# API report: \`${entry.subpath}\``,
    "",
    `${exports.length} exported names. Generated by \`npm run api:update\`; \`npm run api:check\``,
    "(part of `npm test`) fails when the code differs from this file. Review a change here as a change",
    "to the public API.",
    "",
  ];
  for (const e of exports) lines.push(`## ${e.name}`, "", "```ts", e.text, "```", "");
  return { file: `${entry.name}.api.md`, text: lines.join("\n") };
}

const reports = entries.map(report);
if (write) {
  mkdirSync(apiDir, { recursive: true });
  const keep = new Set(reports.map((r) => r.file));
  for (const f of readdirSync(apiDir)) if (f.endsWith(".api.md") && !keep.has(f)) rmSync(join(apiDir, f));
  for (const r of reports) writeFileSync(join(apiDir, r.file), r.text);
  console.log(`api-report: wrote ${reports.map((r) => `api/${r.file}`).join(", ")}`);
} else {
  const problems = [];
  const names = (text) => new Set([...text.matchAll(/^## (\S+)$/gm)].map((m) => m[1]));
  const sections = (text) => new Map(text.split(/^(?=## )/m).map((s) => [s.match(/^## (\S+)/)?.[1], s]));
  for (const r of reports) {
    const path = join(apiDir, r.file);
    if (!existsSync(path)) {
      problems.push(`api/${r.file} is missing`);
      continue;
    }
    const committed = readFileSync(path, "utf8");
    if (committed === r.text) continue;
    const before = names(committed);
    const after = names(r.text);
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    const old = sections(committed);
    const changed = [...sections(r.text)].filter(([n, s]) => n && before.has(n) && old.get(n) !== s).map(([n]) => n);
    const parts = [added.length && `added ${added.join(", ")}`, removed.length && `removed ${removed.join(", ")}`, changed.length && `changed ${changed.join(", ")}`].filter(Boolean);
    problems.push(`api/${r.file} differs from the code: ${parts.join("; ") || "its header or order"}`);
  }
  const stray = existsSync(apiDir) ? readdirSync(apiDir).filter((f) => f.endsWith(".api.md") && !reports.some((r) => r.file === f)) : [];
  for (const f of stray) problems.push(`api/${f} belongs to no entry point of package.json exports`);
  if (problems.length > 0) {
    console.error(problems.map((p) => `api-report: ${p}`).join("\n"));
    console.error("api-report: if the change is intended, run `npm run api:update` and commit api/ with it");
    process.exit(1);
  }
  console.log(`api-report: ${reports.length} entry points match api/ (${reports.map((r) => r.file).join(", ")})`);
}
