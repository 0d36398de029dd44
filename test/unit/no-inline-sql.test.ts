/**
 * The rule "SQL lives in numbered migrations or named queries in a `*-queries.ts` beside the code"
 * (issue 20 item 5): in every module of src/ and graphs/ other than the queries modules, no string
 * literal or template starts a SQL statement. Literals are found with the TypeScript parser, so a
 * statement in a comment or JSDoc (which explains a query) does not count, and one split over a
 * template's `${…}` still does (its head is checked).
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where statements belong: a queries module, or the checkpointer's statement module. */
const isQueriesModule = (path: string) => path.endsWith("-queries.ts") || path === "src/checkpointer/sql.ts";

/**
 * A statement's first keyword, as the code base writes it (upper case, then white space). `SET`
 * only as a setting (`SET name =` / `SET name TO`, optionally LOCAL or SESSION), so that a
 * table header such as "SET BY" is not a statement.
 */
const STATEMENT_START =
  /^\s*(?:(?:SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER|BEGIN|COMMIT|ROLLBACK|LOCK|TRUNCATE|VACUUM|ANALYZE|GRANT|REVOKE)\s|SET\s+(?:LOCAL\s+|SESSION\s+)?[A-Za-z_][\w.]*\s*(?:=|TO\s))/;

/** Every .ts file under `dir` (relative to the repository root), sorted. */
function tsFilesUnder(dir: string): string[] {
  return (readdirSync(new URL(dir, `file://${ROOT}`), { recursive: true, encoding: "utf8" }) as string[])
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => `${dir}/${f.split("\\").join("/")}`)
    .sort();
}

const SOURCES = [...tsFilesUnder("src"), ...tsFilesUnder("graphs")];
const QUERIES = SOURCES.filter(isQueriesModule);
const GUARDED = SOURCES.filter((f) => !isQueriesModule(f));

const read = (path: string) => readFileSync(`${ROOT}${path}`, "utf8");

/** Every string literal or template (its head) that starts a statement, as `path:line: text`. */
function inlineStatements(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = node.head.text;
    if (text !== undefined && STATEMENT_START.test(text)) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push(`${fileName}:${line}: ${text.trim().split("\n")[0].slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("no inline SQL outside the queries modules", () => {
  it("finds the modules to check (so an empty result below means something)", () => {
    expect(GUARDED.length).toBeGreaterThan(200);
    expect(GUARDED).toEqual(expect.arrayContaining(["src/store/langgraph-store.ts", "src/db/migrate.ts", "graphs/memory_agent.ts"]));
  });

  it("no module outside the queries modules writes a statement inline", () => {
    expect(GUARDED.flatMap((path) => inlineStatements(path, read(path)))).toEqual([]);
  });

  it.each(QUERIES)("the scanner finds the statements of %s (every queries module holds at least one)", (path) => {
    expect(inlineStatements(path, read(path)).length).toBeGreaterThan(0);
  });

  it("flags a statement in a string, a template and a template with substitutions, not one in a comment or a message", () => {
    const seeded = [
      "// SELECT 1 in a comment explains, it does not query",
      "/** DELETE FROM x: JSDoc */",
      'const a = "SELECT id FROM memories WHERE tenant_id = $1";',
      "const b = `\n  WITH t AS (SELECT 1) SELECT * FROM t`;",
      "const c = `UPDATE store_items SET key = ${k}`;",
      'const d = "delete the rest again";',
      'const e = "Deleted 3 items";',
      'const f = ["FIELD", "SET BY", "AT"];',
      "const g = `SET search_path TO lgm, public`;",
      'const h = "SET synchronous_commit = off";',
      "const i = `DROP SCHEMA IF EXISTS lgm CASCADE`;",
    ].join("\n");
    expect(inlineStatements("seed.ts", seeded)).toEqual([
      "seed.ts:3: SELECT id FROM memories WHERE tenant_id = $1",
      "seed.ts:4: WITH t AS (SELECT 1) SELECT * FROM t",
      "seed.ts:6: UPDATE store_items SET key =",
      "seed.ts:10: SET search_path TO lgm, public",
      "seed.ts:11: SET synchronous_commit = off",
      "seed.ts:12: DROP SCHEMA IF EXISTS lgm CASCADE",
    ]);
  });
});
