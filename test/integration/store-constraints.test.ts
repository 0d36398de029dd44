import type { Database } from "../../src/db/database.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

// Defence in depth below the store's own validation: the table itself refuses a row whose scope
// columns do not match its scope level, so no code path can write a "user" memory without a user.
describe.each(testEngines())("memories scope constraint on %s", (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
  });
  afterAll(() => db.close());

  const insert = (scope: string, tenantId: string | null, userId: string | null) =>
    db.query("INSERT INTO memories (scope, tenant_id, user_id, kind, text, embedding) VALUES ($1, $2, $3, 'fact', 'x', ARRAY[1]::real[])", [scope, tenantId, userId]);

  it.each([
    ["user", "acme", null],
    ["user", null, "alice"],
    ["user", "acme", ""],
    ["tenant", null, null],
    ["tenant", "acme", "alice"],
    ["global", "acme", null],
  ])("refuses scope %s with tenant %p and user %p", async (scope, tenantId, userId) => {
    await expect(insert(scope, tenantId, userId)).rejects.toMatchObject({ code: "DB_QUERY_FAILED", details: { sqlstate: "23514" } });
  });

  it("accepts the three well-formed shapes", async () => {
    await insert("user", "acme", "alice");
    await insert("tenant", "acme", null);
    await insert("global", null, null);
  });
});
