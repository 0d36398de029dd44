import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { ProgressBar } from "../progress.js";
import { SCOPE_HELP, SCOPE_OPTIONS, requireUser } from "../scope-options.js";
import { resolveConfig } from "../../config.js";
import { openDatabase } from "../../db/open.js";
import { createEmbeddings } from "../../embeddings/create-embeddings.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { importJsonlFile, type ImportJsonlResult } from "../../extraction/write/import-jsonl.js";
import { MemoryRepository } from "../../store/memory-store.js";
import { MemorySettingsStore } from "../../controls/settings-store.js";
import { ProfileStore } from "../../profile/profile-store.js";
import { RuleStore } from "../../procedural/rule-store.js";
import { countOf } from "../../core/plural.js";

const HELP = `usage: langgraph-memory import-jsonl FILE --user U [--tenant T] [--embeddings SPEC] [--json]
                                     [--database-url URL] [--schema NAME]

Bring the entries of a memory-skill JSONL file (scripts/memory.sh, JsonlMemory; e.g.
~/.codex/memory.jsonl) into the long-term store of one user, through the write policy: secrets and
sensitive data are refused, duplicates collapse (importing the same file again adds nothing),
entries keep their original time. Corrupt lines are skipped and reported by line number; the file
is only read. Progress on stderr; a summary on stdout (--json for JSON).

${SCOPE_HELP}`;

function summary(file: string, r: ImportJsonlResult): string {
  const lines = [`imported ${r.imported}, duplicates ${r.duplicates}, refused ${r.refused}, corrupt lines ${r.corruptLines} (${countOf(r.entries, "entry", "entries")} in ${file})`];
  const categories = Object.entries(r.refusedByCategory);
  const reasons = Object.entries(r.refusedByReason);
  if (reasons.length > 0) lines.push(`refused by reason: ${reasons.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  if (categories.length > 0) lines.push(`refused by category: ${categories.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  const shown = r.corrupt.slice(0, 10);
  for (const c of shown) lines.push(`line ${c.line}: ${c.reason}`);
  if (r.corrupt.length > shown.length) lines.push(`… and ${countOf(r.corrupt.length - shown.length, "more corrupt line")}`);
  if (r.report.profileFieldsChanged || r.report.rulesProposed) {
    lines.push(`profile fields ${r.report.profileFieldsChanged}, rules proposed ${r.report.rulesProposed}`);
  }
  return lines.join("\n");
}

export const command: CliCommand = {
  summary: "import a memory-skill JSONL file into the long-term store (through the write policy)",
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { ...SCOPE_OPTIONS, embeddings: { type: "string" }, json: { type: "boolean" } }, true);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, "give exactly one FILE (the JSONL memory file to import)");
    const scope = requireUser(values, "whose memories the entries become");
    const file = positionals[0];
    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema, embeddings: values.embeddings });
    const embeddings = await createEmbeddings(config.embeddings);
    const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir });
    try {
      const store = new MemoryRepository(db, { embeddings, retrieval: config.retrieval, writePolicy: config.writePolicy });
      let bar: ProgressBar | undefined;
      const result = await importJsonlFile(file, {
        store,
        scope,
        policy: config.writePolicy,
        targets: { profile: new ProfileStore(db), rules: new RuleStore(db), settings: new MemorySettingsStore(db) },
        onProgress: (done, total) => {
          bar ??= new ProgressBar("importing (bytes)", total);
          bar.update(done);
        },
      });
      bar?.done();
      const { report, ...rest } = result;
      if (values.json) {
        console.log(JSON.stringify({ ...rest, profileFieldsChanged: report.profileFieldsChanged, rulesProposed: report.rulesProposed }));
      } else console.log(summary(file, result));
      return 0;
    } finally {
      await db.close();
    }
  },
};
