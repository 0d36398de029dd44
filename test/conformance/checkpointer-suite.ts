import { deltaChannelHistoryTests, specTest, type CheckpointSaverTestInitializer } from "@langchain/langgraph-checkpoint-validation";
import { PostgresCheckpointer } from "../../src/checkpointer/index.js";
import { TRUNCATE_SQL } from "../../src/checkpointer/sql.js";
import type { Database } from "../../src/db/database.js";
import { openTestDatabase, type TestEngine } from "../helpers/db.js";

/**
 * The official conformance suite (`specTest`) and the opt-in delta-channel-history tests against
 * one engine. One database per file; each checkpointer the suite creates starts from empty tables.
 */
export function checkpointerConformance(engine: TestEngine): void {
  let db: Database;
  const initializer: CheckpointSaverTestInitializer<PostgresCheckpointer> = {
    checkpointerName: `PostgresCheckpointer (${engine})`,
    beforeAllTimeout: 60_000,
    async beforeAll() {
      db = await openTestDatabase(engine);
    },
    async afterAll() {
      await db?.close();
    },
    createCheckpointer() {
      return PostgresCheckpointer.fromDatabase(db);
    },
    async destroyCheckpointer(checkpointer) {
      await checkpointer.close();
      await db.exec(TRUNCATE_SQL);
    },
  };
  specTest(initializer);
  deltaChannelHistoryTests(initializer);
}
