/**
 * Fault: the server Postgres restarts in the middle of a run. On a private throwaway PostgreSQL
 * (never the shared server), chat turns run through a memory agent graph (checkpointer, load
 * node, extraction jobs) and memories are written, from several concurrent clients, while an
 * extraction worker runs in the same process. Mid-run the server restarts (`pg_ctl restart -m
 * fast`, then `-m immediate`, i.e. a crash). Expected:
 *
 * - requests in flight fail with the typed, retryable `DB_UNAVAILABLE`;
 * - the next requests succeed in the same process (the pool reconnects; the worker resumes);
 * - no checkpoint is half-written (SQL over the checkpointer's tables) and every acknowledged turn
 *   is in its thread's state;
 * - no acknowledged memory is lost or duplicated, and every extraction job completes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { ErrorCodes, isMemoryError } from "../../src/errors.js";
import { EXTRACTION_QUEUE, extractionJobHandlers } from "../../src/extraction/node/index.js";
import { JobWorker, type JobEvent } from "../../src/jobs/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { answerFor, buildChatGraph, runConfig, type ChatGraph } from "./helpers/chat-graph.js";
import { checkpointIntegrity } from "./helpers/checkpoint-integrity.js";
import { report, size } from "./helpers/sizes.js";
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from "./helpers/throwaway-postgres.js";

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[reliability] server-restart faults skipped: ${unavailable}`);
const describeIf = unavailable ? describe.skip : describe;

const TENANT = "restart-co";
const CLIENTS = size(4, 6);
const TURNS_AFTER_RESTART = size(3, 6);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Failure {
  op: string;
  code: unknown;
  retryable: unknown;
  message: string;
}

describeIf("server Postgres restarted mid-run (private throwaway server)", () => {
  let pg: ThrowawayPostgres;
  let memory: LangGraphMemory;
  let graph: ChatGraph;
  let worker: JobWorker;
  const workerEvents: JobEvent[] = [];

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    try {
      memory = await createMemory({ databaseUrl: pg.url, schema: "lgm_restart", poolMax: CLIENTS + 6 });
      graph = buildChatGraph(memory);
      worker = new JobWorker(memory.db, {
        workerId: "restart-worker",
        concurrency: 2,
        pollIntervalMs: 100,
        leaseMs: 5_000,
        handlers: extractionJobHandlers({ store: memory.store, targets: { profile: memory.profiles, rules: memory.rules, settings: memory.settings, controls: memory.controls.writeTarget } }),
        onEvent: (e) => void (e.type !== "idle" && workerEvents.push(e)),
      });
      worker.start();
    } catch (err) {
      await pg.stop();
      throw err;
    }
  }, 120_000);

  afterAll(async () => {
    try {
      await worker?.stop({ timeoutMs: 10_000 });
      await memory?.close();
    } finally {
      await pg?.stop();
    }
  }, 60_000);

  it.each(["fast", "immediate"] as const)(
    "restart -m %s: in-flight requests fail with a retryable DB_UNAVAILABLE, later ones succeed, nothing acknowledged is lost",
    async (mode) => {
      const failures: Failure[] = [];
      const ackedTurns = new Map<string, string[]>(); // thread → user texts acknowledged, in order
      const ackedNotes: string[] = [];
      let restarted = false;
      let stop = false;
      const afterRestart = new Map<number, number>();

      /** Run `op` until it succeeds; every failure must be the typed, retryable unavailability. */
      const untilAcked = async <T>(label: string, op: () => Promise<T>): Promise<T> => {
        for (;;) {
          try {
            return await op();
          } catch (err) {
            failures.push({ op: label, code: (err as { code?: unknown }).code, retryable: (err as { retryable?: unknown }).retryable, message: String((err as Error).message).slice(0, 200) });
            if (!isMemoryError(err, ErrorCodes.DB_UNAVAILABLE)) throw err;
            await sleep(50);
          }
        }
      };

      const client = async (c: number) => {
        const userId = `user-${mode}-${c}`;
        const thread = `thread-${mode}-${c}`;
        ackedTurns.set(thread, []);
        for (let turn = 0; !stop; turn++) {
          const text = `Turn ${turn} of client ${c}: I prefer tea number ${turn}.`;
          const cfg = runConfig(thread, TENANT, userId);
          const id = `${thread}-u${turn}`;
          // A failed run is retried as LangGraph resumes one: from its last checkpoint (pending
          // nodes run with a null input); a run whose last checkpoint was written (the answer is
          // there, only the acknowledgement was lost) is done; otherwise the turn is sent again.
          await untilAcked("graph.invoke", async () => {
            const state = await graph.getState(cfg);
            const messages = (state.values.messages ?? []) as BaseMessage[];
            const sent = messages.findIndex((m) => m.id === id);
            // `tasks` also lists nodes that finished before the failure: their writes are kept as
            // pending writes and applied on resume (getState shows them applied, with `next` empty).
            if (sent >= 0 && (state.next.length > 0 || state.tasks.length > 0)) return graph.invoke(null, cfg);
            if (sent >= 0 && messages.length > sent + 1) return state.values;
            return graph.invoke({ messages: [new HumanMessage({ id, content: text })] }, cfg);
          });
          ackedTurns.get(thread)!.push(text);
          const note = `note ${mode} ${c}.${turn}`;
          await untilAcked("store.add", () => memory.store.add({ tenantId: TENANT, userId }, { kind: "fact", text: note }));
          ackedNotes.push(note);
          if (restarted) afterRestart.set(c, (afterRestart.get(c) ?? 0) + 1);
          if (restarted && [...Array(CLIENTS).keys()].every((k) => (afterRestart.get(k) ?? 0) >= TURNS_AFTER_RESTART)) stop = true;
        }
      };

      const clients = [...Array(CLIENTS).keys()].map(client);
      // Let the run get going, then put two long requests in flight and restart under them.
      while (ackedNotes.length < CLIENTS * 2) await sleep(20);
      const sleeping = memory.db.query("SELECT pg_sleep(60)").then(
        () => null,
        (err: unknown) => err,
      );
      const sleepingTx = memory.db
        .transaction((tx) => tx.query("SELECT pg_sleep(60)"), { scope: { tenantId: TENANT, userId: "probe" } })
        .then(
          () => null,
          (err: unknown) => err,
        );
      for (let i = 0; i < 200; i++) {
        const { rows } = await memory.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'");
        if (rows[0].n === 2) break;
        await sleep(25);
      }
      const ackedBefore = ackedNotes.length;
      await pg.restart(mode);
      restarted = true;
      const [probe, probeTx] = await Promise.all([sleeping, sleepingTx]);
      await Promise.all(clients);

      // In flight during the restart: the typed, retryable error.
      for (const err of [probe, probeTx]) {
        expect(err).toMatchObject({ name: "MemoryError", code: "DB_UNAVAILABLE", retryable: true });
      }
      // Every failure a client saw was that error, and nothing else.
      expect(failures.filter((f) => f.code !== "DB_UNAVAILABLE" || f.retryable !== true)).toEqual([]);
      // The same process and pool served requests after the restart.
      expect(Math.min(...[...Array(CLIENTS).keys()].map((c) => afterRestart.get(c) ?? 0))).toBeGreaterThanOrEqual(TURNS_AFTER_RESTART);

      // No half-written checkpoint: SQL over the checkpointer's tables.
      const integrity = await checkpointIntegrity(memory.db);
      expect(integrity).toMatchObject({ orphanCheckpoints: 0, missingValueItems: 0, missingWriteItems: 0, rowsWithoutThread: 0, itemsBeyondCounter: 0 });
      // Every acknowledged turn is in its thread's state, once, in order, with its answer.
      for (const [thread, texts] of ackedTurns) {
        const c = Number(thread.split("-").pop());
        const state = await graph.getState(runConfig(thread, TENANT, `user-${mode}-${c}`));
        const contents = (state.values.messages as BaseMessage[]).map((m) => String(m.content));
        const expected = texts.flatMap((t) => [t, answerFor(t)]);
        expect({ thread, contents }).toEqual({ thread, contents: expected });
        // Every stored checkpoint of the thread decodes (read as its owner: a thread is its user's).
        for await (const tuple of memory.checkpointer.list(runConfig(thread, TENANT, `user-${mode}-${c}`))) expect(tuple.checkpoint.id).toBeTruthy();
      }

      // No acknowledged memory lost, none duplicated.
      const { rows } = await memory.db.query<{ text: string; n: number }>(
        "SELECT text, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND text LIKE $2 GROUP BY text",
        [TENANT, `note ${mode} %`],
      );
      const stored = new Map(rows.map((r) => [r.text, r.n]));
      expect(ackedNotes.filter((n) => stored.get(n) !== 1)).toEqual([]);

      // The worker survived the restart: every extraction job ends done (none failed for good).
      let states: Record<string, number> = {};
      for (let i = 0; i < 400; i++) {
        const res = await memory.db.query<{ state: string; n: number }>("SELECT state, count(*)::int AS n FROM memory_jobs WHERE queue = $1 GROUP BY state", [EXTRACTION_QUEUE]);
        states = Object.fromEntries(res.rows.map((r) => [r.state, r.n]));
        if (!states.pending && !states.running) break;
        await sleep(50);
      }
      expect(states).toEqual({ done: expect.any(Number) });
      expect(worker.running).toBe(true);

      report(`server restart -m ${mode}`, {
        clients: CLIENTS,
        ackedTurns: [...ackedTurns.values()].reduce((s, t) => s + t.length, 0),
        ackedMemories: ackedNotes.length,
        ackedBeforeRestart: ackedBefore,
        failedAttempts: failures.length + 2,
        failedOps: [...new Set(failures.map((f) => f.op))],
        checkpoints: integrity.checkpoints,
        jobsDone: states.done,
        workerErrors: workerEvents.filter((e) => e.type === "error").length,
      });
    },
    180_000,
  );
});
