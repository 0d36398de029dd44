import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { openDatabase } from "../../db/open.js";
import { resolveConfig } from "../../config.js";
import { createEmbeddings } from "../../embeddings/create-embeddings.js";
import { reembedMemories } from "../../store/reembed.js";
import { ProgressBar } from "../progress.js";
import { ErrorCodes, MemoryError } from "../../errors.js";
import { countOf } from "../../core/plural.js";

const HELP = `usage: langgraph-memory reembed [--batch N] [--embeddings SPEC] [--database-url URL] [--schema NAME] [--json]

Re-embed every stored memory with the configured embedder (EMBEDDINGS or --embeddings: "local",
"openai:<model>") and record its name and dimension, so the store accepts it. Runs in one
transaction: searches see the old vectors until it finishes; writes wait for it. Progress on stderr.`;

export const command: CliCommand = {
  summary: "re-embed all memories with the configured embedder (after changing model or dimension)",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { batch: { type: "string" }, embeddings: { type: "string" }, json: { type: "boolean" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const batchSize = values.batch === undefined ? 256 : Number(values.batch);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new MemoryError(ErrorCodes.INVALID_INPUT, "--batch: a positive integer");
    const config = resolveConfig({ databaseUrl: values["database-url"], schema: values.schema, embeddings: values.embeddings });
    const embeddings = await createEmbeddings(config.embeddings);
    const db = await openDatabase(config.databaseUrl, { schema: config.schema, dataDir: config.dataDir });
    try {
      let bar: ProgressBar | undefined;
      const result = await reembedMemories(db, embeddings, {
        batchSize,
        onProgress: (done, total) => {
          bar ??= new ProgressBar("re-embedding memories", total);
          bar.update(done);
        },
      });
      bar?.done();
      if (values.json) console.log(JSON.stringify(result));
      else {
        const before = result.previous ? `${result.previous.embedder} (${result.previous.dims} dims)` : "nothing recorded";
        console.log(`re-embedded ${countOf(result.memories, "memory", "memories")}: ${before} → ${result.current.embedder} (${result.current.dims} dims)`);
      }
      return 0;
    } finally {
      await db.close();
    }
  },
};
