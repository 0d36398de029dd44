/**
 * A correction in the same extraction batch as the value it corrects ("I live in Porto …" then
 * "actually we moved to Lisbon", one queued job for both turns). The policy keeps only the slot's
 * last word, so the old value is never stored — and nothing withdrew it from the past session
 * that quotes the conversation: an outside tester saw a new thread offered "I live in Porto" and
 * "Places: Porto; Lisbon" whenever both turns were extracted together (Lisbon alone when the worker
 * ran after each turn). The slot's write now withdraws what the batch said before, as it withdraws
 * a stored value it supersedes.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import type { Database } from "../../src/db/database.js";
import type { MemoryCandidate } from "../../src/core/candidate.js";
import { writeCandidates } from "../../src/extraction/write/write-candidates.js";
import { indexSessionNow } from "../../src/sessions/index-session-now.js";
import { MemoryRepository } from "../../src/store/memory-store.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";

let seq = 0;

const candidate = (text: string, sourceMessageId: string, extra: Partial<MemoryCandidate> = {}): MemoryCandidate => ({
  kind: "fact",
  text,
  confidence: 0.9,
  subject: "location.home",
  action: "add",
  sourceMessageId,
  source: "user",
  extractor: "rules",
  ...extra,
});

describe.each(testEngines())("a correction in the batch of the value it corrects, on %s", (engine) => {
  let db: Database;
  let store: MemoryRepository;
  beforeAll(async () => {
    db = await openTestDatabase(engine);
    store = new MemoryRepository(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it("leaves the past session without the old value, and stores only the new one", async () => {
    const scope = { tenantId: "acme", userId: `mover-${++seq}` };
    const threadId = `moving-${seq}`;
    const config = { configurable: { thread_id: threadId, tenant_id: scope.tenantId, user_id: scope.userId } };
    const messages = [
      new HumanMessage({ id: "m1", content: "I live in Porto with my two kids." }),
      new AIMessage({ id: "m2", content: "Lovely city!" }),
      new HumanMessage({ id: "m3", content: "Oh, and I collect old maps of Europe." }),
      new AIMessage({ id: "m4", content: "What a hobby." }),
    ];
    await indexSessionNow({ store, messages, config });
    const quoting = async (word: RegExp) => (await store.export(scope)).filter((m) => m.supersededBy === null && word.test(`${m.text} ${m.context ?? ""}`)).map((m) => m.kind);
    expect(await quoting(/Porto/)).not.toEqual([]);

    const report = await writeCandidates(
      [candidate("User lives in Porto.", "m1"), candidate("User lives in Lisbon.", "m5", { correction: true })],
      { store, scope, writer: "extraction", threadId },
    );
    expect(report.refusedByReason.superseded_in_batch).toBe(1);
    expect(await quoting(/Porto/)).toEqual([]);
    expect(await quoting(/Lisbon/)).toEqual(["fact"]);
  });

  it("withdraws the batch's earlier value in the same pass as a stored value the new one supersedes", async () => {
    const scope = { tenantId: "acme", userId: `mover-${++seq}` };
    const threadId = `moving-${seq}`;
    const config = { configurable: { thread_id: threadId, tenant_id: scope.tenantId, user_id: scope.userId } };
    await writeCandidates([candidate("User lives in Madrid.", "m0")], { store, scope, writer: "extraction", threadId });
    await indexSessionNow({ store, messages: [new HumanMessage({ id: "m1", content: "I live in Porto with my two kids." }), new AIMessage({ id: "m2", content: "Lovely!" })], config });
    const quoting = async (word: RegExp) => (await store.export(scope)).filter((m) => m.supersededBy === null && word.test(`${m.text} ${m.context ?? ""}`)).length;
    expect(await quoting(/Porto/)).toBeGreaterThan(0);
    const report = await writeCandidates([candidate("User lives in Porto.", "m1"), candidate("User lives in Lisbon.", "m5", { correction: true })], { store, scope, writer: "extraction", threadId });
    expect(report.superseded).toBe(1);
    expect(await quoting(/Porto/)).toBe(0);
    expect(await quoting(/Madrid/)).toBe(0);
    expect(await quoting(/Lisbon/)).toBe(1);
  });
});
