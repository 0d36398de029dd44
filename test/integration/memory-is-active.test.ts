import type { Database } from "../../src/db/database.js";
import { ACTIVE_SQL } from "../../src/store/memory-queries.js";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

/** The condition as every statement wrote it before migration 0015. */
const WRITTEN_OUT = (a: string, now: string) => `${a}.superseded_by IS NULL AND (${a}.expires_at IS NULL OR ${a}.expires_at > ${now}) AND ${a}.deactivated_at IS NULL`;

/**
 * Statements reading memories through the active condition; each must plan the same with the
 * condition written out and with the memory_is_active call (inlined by the planner).
 */
const STATEMENTS: Array<{ name: string; sql: (active: string) => string; index: RegExp }> = [
  {
    name: "a user's memories of a kind (memories_scope_idx)",
    sql: (active) => `SELECT m.id FROM memories m WHERE m.tenant_id = 'acme' AND m.user_id = 'alice' AND m.kind = 'fact' AND ${active}`,
    index: /memories_scope_idx/,
  },
  {
    // A partial index whose predicate (deactivated_at IS NULL) must be implied by the condition.
    name: "inferred memories by age (partial memories_inferred_idx)",
    sql: (active) => `SELECT m.id FROM memories m WHERE m.origin = 'inferred' AND m.created_at < '2030-01-01' AND ${active}`,
    index: /memories_inferred_idx/,
  },
];

describe.each(testEngines())("memory_is_active on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  const alice = { tenantId: "acme", userId: "alice" };

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db, { embeddings: new LocalHashingEmbeddings({ dims: 32 }), candidateCache: false });
    await store.addMany(alice, Array.from({ length: 40 }, (_, i) => ({ kind: "fact" as const, text: `fact number ${i} about the orchard` })));
  });
  afterAll(async () => {
    await db.close();
  });

  it("is the lifecycle condition: superseded, expired (at the given time) and deactivated rows are not active", async () => {
    const { rows } = await db.query<{ a: boolean[] }>(
      `SELECT array[
         memory_is_active(NULL, NULL, NULL, now()),
         memory_is_active(gen_random_uuid(), NULL, NULL, now()),
         memory_is_active(NULL, now() + interval '1 hour', NULL, now()),
         memory_is_active(NULL, now() - interval '1 hour', NULL, now()),
         memory_is_active(NULL, now(), NULL, now()),
         memory_is_active(NULL, NULL, now(), now())
       ] AS a`,
    );
    expect(rows[0].a).toEqual([true, false, true, false, false, false]);
  });

  it("ACTIVE_SQL is the call", () => {
    expect(ACTIVE_SQL("m", "$3::timestamptz")).toBe("memory_is_active(m.superseded_by, m.expires_at, m.deactivated_at, $3::timestamptz)");
  });

  it.each(STATEMENTS)("is inlined: $name plans the same as with the condition written out", async ({ sql, index }) => {
    const plan = async (active: string) =>
      db.transaction(async (tx) => {
        // Index paths only, so that the plan shows which index the condition lets the planner use.
        await tx.query("SELECT set_config('enable_seqscan', 'off', true)");
        const { rows } = await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${sql(active)}`);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    const before = await plan(WRITTEN_OUT("m", "now()"));
    const after = await plan(ACTIVE_SQL("m", "now()"));
    expect(before).toMatch(index);
    expect(after).toBe(before);
    expect(after).not.toMatch(/memory_is_active/);
  });
});
