/**
 * The rule "SQL lives in numbered migrations or named queries in a `*-queries.ts` beside the code"
 * (issue 20 item 5), kept for the modules that used to write statements inline: no string literal
 * or template in them starts a SQL statement. Literals are found with the TypeScript parser, so a
 * statement in a comment or JSDoc (which explains a query) does not count, and one split over a
 * template's `${…}` still does (its head is checked).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Modules that use the database and must take their statements from a queries module. */
const GUARDED = ["src/controls/user-data.ts", "src/controls/memory-controls.ts", "src/store/langgraph-store.ts", "src/procedural/rule-store.ts"];

/** Queries modules those statements moved to: the scanner must find statements there, or it finds nothing anywhere. */
const QUERIES = ["src/controls/user-data-queries.ts", "src/controls/memory-controls-queries.ts", "src/store/store-item-queries.ts", "src/procedural/rule-queries.ts"];

/** A statement's first keyword, as the code base writes it (upper case, then white space). */
const STATEMENT_START = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\s/;

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");

/** Every string literal or template (its head) that starts a statement, as `line: text`. */
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
  it.each(GUARDED)("%s takes every statement from a named query", (path) => {
    expect(inlineStatements(path, read(path))).toEqual([]);
  });

  it.each(QUERIES)("the scanner finds the statements of %s (so an empty result above means something)", (path) => {
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
    ].join("\n");
    expect(inlineStatements("seed.ts", seeded)).toEqual([
      "seed.ts:3: SELECT id FROM memories WHERE tenant_id = $1",
      "seed.ts:4: WITH t AS (SELECT 1) SELECT * FROM t",
      "seed.ts:6: UPDATE store_items SET key =",
    ]);
  });
});
