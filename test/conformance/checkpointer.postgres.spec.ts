import { checkpointerConformance } from "./checkpointer-suite.js";

if (process.env.DATABASE_URL) {
  checkpointerConformance("postgres");
} else {
  console.log("[conformance] DATABASE_URL is not set: the server Postgres conformance run is skipped (PGlite runs)");
  describe.skip("PostgresCheckpointer (postgres)", () => {
    it("needs DATABASE_URL", () => undefined);
  });
}
