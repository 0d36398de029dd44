/**
 * Load: N concurrent threads × M turns through the memory agent graph (`withMemory` with the
 * memory agent node and its tools, as `graphs/memory_agent.ts` builds it, compiled with the
 * memory's checkpointer) on server Postgres — a private throwaway PostgreSQL, so the shared server
 * is not loaded — with two extraction workers running the whole time. Default 20 × 10;
 * LGM_RELIABILITY_FULL=1: 100 × 30; LGM_LOAD_TURNS=N sets the turns (CI runs the 100 × 50:
 * 164 s alone, ~300 s beside the other files on 2 cores; the whole CI stays well under 20 minutes).
 *
 * Checked against what was sent: no errors; every thread's state holds exactly its turns, in
 * order; every thread has exactly (turns × checkpoints per turn) checkpoints and none is
 * half-written; every user has exactly one memory per turn (each turn states a new preference)
 * and none elsewhere; every extraction job ends done. Prints p50/p95 per turn and throughput.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { createMemoryAgentNode, memoryToolsFor, memoryWorker, withMemory } from "../../src/graph/index.js";
import type { JobWorker } from "../../src/jobs/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { round, summarize } from "../../src/cli/bench/stats.js";
import { checkpointIntegrity } from "./helpers/checkpoint-integrity.js";
import { report, size } from "./helpers/sizes.js";
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from "./helpers/throwaway-postgres.js";

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[reliability] load test skipped: ${unavailable}`);
const describeIf = unavailable ? describe.skip : describe;

const THREADS = size(20, 100);
const TURNS = Number(process.env.LGM_LOAD_TURNS) || size(10, 30);
const TENANT = "load-co";
/** One new preference per turn; pairwise similarity stays below the 0.9 dedupe threshold (checked). */
const HOBBIES = [
  "kayaking", "pottery", "chess", "birdwatching", "origami", "sourdough baking", "rock climbing", "calligraphy", "beekeeping", "fencing",
  "juggling", "woodcarving", "astronomy", "knitting", "archery", "surfing", "gardening", "sailing", "skateboarding", "photography",
  "bowling", "bouldering", "canoeing", "embroidery", "glassblowing", "falconry", "geocaching", "mahjong", "parkour", "quilting",
  "snorkeling", "taxidermy", "ukulele", "volleyball", "wakeboarding", "yodeling", "zumba", "cross-stitch", "dominoes", "fly fishing",
  "hiking", "ice skating", "kite flying", "lacrosse", "macrame", "orienteering", "paragliding", "rowing", "scuba diving", "table tennis",
];

describeIf(`load: ${THREADS} threads × ${TURNS} turns through the memory agent graph on server Postgres`, () => {
  let pg: ThrowawayPostgres;
  let memory: LangGraphMemory;
  let workers: JobWorker[] = [];

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    try {
      memory = await createMemory({ databaseUrl: pg.url, schema: "lgm_load", poolMax: 24 });
    } catch (err) {
      await pg.stop();
      throw err;
    }
  }, 120_000);

  afterAll(async () => {
    try {
      for (const w of workers) await w.stop({ timeoutMs: 10_000 });
      await memory?.close();
    } finally {
      await pg?.stop();
    }
  }, 60_000);

  it("no errors, nothing lost or duplicated, p50/p95 per turn printed", async () => {
    expect(HOBBIES.length).toBeGreaterThanOrEqual(TURNS);
    const vectors = await new LocalHashingEmbeddings().embedDocuments(HOBBIES.map((h) => `User likes ${h}.`));
    let maxSimilarity = 0;
    for (let i = 0; i < vectors.length; i++) for (let j = i + 1; j < vectors.length; j++) maxSimilarity = Math.max(maxSimilarity, vectors[i].reduce((s, x, k) => s + x * vectors[j][k], 0));
    expect(maxSimilarity).toBeLessThan(memory.config.writePolicy.dedupeThreshold);

    const tools = memoryToolsFor(memory);
    const graph = withMemory({ memory, agent: createMemoryAgentNode({ memory, tools }), tools, extraction: "queue", debounceMs: 0 }).compile({ checkpointer: memory.checkpointer });
    const config = (t: number) => ({ configurable: { thread_id: `load-thread-${t}`, tenant_id: TENANT, user_id: `load-user-${t}` } });

    // Checkpoints one turn writes (calibration thread, not counted below).
    await graph.invoke({ messages: [new HumanMessage("I like tea.")] }, { configurable: { thread_id: "calibration", tenant_id: TENANT, user_id: "calibration" } });
    const perTurn = Number((await memory.db.query<{ n: number }>("SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = 'calibration'")).rows[0].n);
    expect(perTurn).toBeGreaterThan(0);

    workers = [memoryWorker(memory, { concurrency: 2, pollIntervalMs: 200 }), memoryWorker(memory, { concurrency: 2, pollIntervalMs: 200 })];
    for (const w of workers) w.start();

    const latencies: number[] = [];
    const errors: string[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: THREADS }, async (_, t) => {
        for (let turn = 0; turn < TURNS; turn++) {
          const t0 = performance.now();
          try {
            await graph.invoke({ messages: [new HumanMessage({ id: `load-${t}-u${turn}`, content: `I like ${HOBBIES[turn]}.` })] }, config(t));
            latencies.push(performance.now() - t0);
          } catch (err) {
            errors.push(`thread ${t} turn ${turn}: ${(err as Error).message}`);
          }
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    expect(errors).toEqual([]);

    // Extraction catches up: every job done, none failed.
    const deadline = Date.now() + 120_000;
    let jobs: Record<string, number> = {};
    for (;;) {
      const { rows } = await memory.db.query<{ state: string; n: number }>("SELECT state, count(*)::int AS n FROM memory_jobs GROUP BY state");
      jobs = Object.fromEntries(rows.map((r) => [r.state, r.n]));
      if ((!jobs.pending && !jobs.running) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const drainedMs = performance.now() - started;
    expect(jobs).toEqual({ done: expect.any(Number) });

    // Checkpoints: exactly turns × perTurn per thread, none half-written.
    const { rows: perThread } = await memory.db.query<{ thread_id: string; n: number }>(
      "SELECT thread_id, count(*)::int AS n FROM checkpoints WHERE thread_id LIKE 'load-thread-%' GROUP BY thread_id",
    );
    expect(perThread.length).toBe(THREADS);
    expect(perThread.filter((r) => r.n !== TURNS * perTurn)).toEqual([]);
    const integrity = await checkpointIntegrity(memory.db);
    expect(integrity).toMatchObject({ orphanCheckpoints: 0, missingValueItems: 0, missingWriteItems: 0, rowsWithoutThread: 0, itemsBeyondCounter: 0 });
    // Every thread's state: its turns in order, each answered once.
    for (let t = 0; t < THREADS; t++) {
      const state = await graph.getState(config(t));
      const messages = state.values.messages as BaseMessage[];
      expect(messages.filter((m) => m.getType() === "human").map((m) => String(m.content))).toEqual(HOBBIES.slice(0, TURNS).map((h) => `I like ${h}.`));
      expect(messages.filter((m) => m.getType() === "ai").length).toBe(TURNS);
    }

    // Memories: one per turn per user, in that user's scope, none duplicated or lost (past-session
    // summaries — episodes carrying metadata.session, at most one per thread — are counted apart).
    const { rows: memories } = await memory.db.query<{ user_id: string; text: string; n: number }>(
      "SELECT user_id, text, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND user_id LIKE 'load-user-%' AND superseded_by IS NULL AND NOT (metadata ? 'session') GROUP BY user_id, text",
      [TENANT],
    );
    const { rows: sessions } = await memory.db.query<{ user_id: string; n: number }>(
      "SELECT user_id, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND metadata ? 'session' GROUP BY user_id",
      [TENANT],
    );
    expect(sessions.filter((r) => r.n > 1)).toEqual([]);
    const byUser = new Map<string, string[]>();
    for (const r of memories) {
      expect({ user: r.user_id, text: r.text, n: r.n }).toEqual({ user: r.user_id, text: r.text, n: 1 });
      byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.text]);
    }
    for (let t = 0; t < THREADS; t++) {
      expect((byUser.get(`load-user-${t}`) ?? []).sort()).toEqual(HOBBIES.slice(0, TURNS).map((h) => `User likes ${h}.`).sort());
    }

    const stats = summarize(latencies);
    report(`load ${THREADS}×${TURNS}`, {
      turns: latencies.length,
      errors: errors.length,
      p50Ms: round(stats.p50_ms, 1),
      p95Ms: round(stats.p95_ms, 1),
      maxMs: round(Math.max(...latencies), 1),
      turnsPerSecond: round((latencies.length / elapsedMs) * 1000, 1),
      runSeconds: round(elapsedMs / 1000, 1),
      extractionDrainedSeconds: round(drainedMs / 1000, 1),
      checkpoints: integrity.checkpoints,
      checkpointsPerTurn: perTurn,
      memories: memories.length,
      sessionMemories: sessions.length,
      jobsDone: jobs.done,
      poolMax: memory.config.poolMax,
    });
  }, 900_000);
});
