import type { CliCommand } from "../cli-command.js";
import { parseCommandArgs } from "../common-options.js";
import { connectDatabase } from "../../db/open.js";
import { migrate } from "../../db/migrate.js";
import { countOf } from "../../core/plural.js";

const HELP = `usage: langgraph-memory migrate [--database-url URL] [--schema NAME] [--json]

Apply pending migrations (each in a transaction, under an advisory lock on server Postgres).
Running it again is a no-op. Refuses a database holding migrations this version does not know.`;

export const command: CliCommand = {
  summary: "apply pending database migrations",
  async run(argv) {
    const { values } = parseCommandArgs(argv, { json: { type: "boolean" } });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const db = await connectDatabase(values["database-url"], { schema: values.schema });
    try {
      const result = await migrate(db);
      if (values.json) console.log(JSON.stringify({ ...result, schema: db.schema, engine: db.engine }));
      else if (result.applied.length === 0) console.log(`schema ${db.schema} (${db.engine}) is up to date (${countOf(result.alreadyApplied, "migration")})`);
      else console.log(`applied ${countOf(result.applied.length, "migration")} to ${db.schema} (${db.engine}): ${result.applied.join(", ")}`);
      return 0;
    } finally {
      await db.close();
    }
  },
};
