/**
 * Fault: server Postgres restarts again and again under load (issue 17, item 3). A private
 * throwaway PostgreSQL (never the shared server) is restarted `-m fast` and `-m immediate`
 * alternately while a separate Node process (fixtures/restart-load.ts) runs concurrent chat turns
 * through the memory agent graph, memory writes, an extraction worker that LISTENs, and holds an
 * idle client it borrowed from the pool. Expected, after every restart:
 *
 * - the process never sees an uncaught exception or an unhandled rejection (its process-level
 *   detectors count them; either would have ended a plain Node process);
 * - every failure an operation saw is the typed, retryable DB_UNAVAILABLE, and the load goes on
 *   in the same process after each restart;
 * - no acknowledged write is lost: every acknowledged memory is stored once, every acknowledged
 *   turn is in its thread's state in order, no checkpoint is half-written, and every extraction
 *   job ends done.
 *
 * 20 restarts in every run (about 35 s on 2 cores).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BaseMessage } from "@langchain/core/messages";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { answerFor, buildChatGraph, runConfig } from "./helpers/chat-graph.js";
import { checkpointIntegrity } from "./helpers/checkpoint-integrity.js";
import { report } from "./helpers/sizes.js";
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from "./helpers/throwaway-postgres.js";

const unavailable = throwawayPostgresUnavailable();
if (unavailable) console.warn(`[reliability] restart-loop faults skipped: ${unavailable}`);
const describeIf = unavailable ? describe.skip : describe;

const TENANT = "restart-loop-co";
const SCHEMA = "lgm_restart_loop";
const CLIENTS = 4;
const RESTARTS = 20;
const FIXTURE = join(process.cwd(), "test/reliability/fixtures/restart-load.ts");

interface LoadResult {
  crashes: Array<{ kind: string; message: string }>;
  ackedTurns: Record<string, string[]>;
  ackedNotes: string[];
  failures: Record<string, number>;
  unexpected: Array<{ op: string; code: unknown; message: string }>;
  jobs: Record<string, number>;
  workerRunning: boolean;
  workerErrors: number;
}

describeIf("server Postgres restarted again and again under load (private throwaway server)", () => {
  let pg: ThrowawayPostgres;

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  }, 60_000);

  it(
    `${RESTARTS} restarts, fast and immediate alternately: no crash, every failure retryable, nothing acknowledged lost`,
    async () => {
      const env = { ...process.env };
      delete env.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the child
      const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, pg.url, SCHEMA, String(CLIENTS)], { env, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      let acked = 0;
      let ready = false;
      let result: LoadResult | undefined;
      const crashLines: string[] = [];
      createInterface({ input: child.stdout }).on("line", (line) => {
        if (line === "READY") ready = true;
        else if (line.startsWith("ACK ")) acked = Number(line.slice(4));
        else if (line.startsWith("CRASH ")) crashLines.push(line);
        else if (line.startsWith("RESULT ")) result = JSON.parse(line.slice(7)) as LoadResult;
      });
      let childExit: number | null | undefined;
      void exited.then((code) => (childExit = code));
      const until = async (what: string, cond: () => boolean, timeoutMs = 90_000) => {
        const deadline = Date.now() + timeoutMs;
        while (!cond()) {
          if (childExit !== undefined) throw new Error(`the load process exited (${childExit}) while waiting for ${what}\n${stderr}`);
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stderr}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };

      const modes: Array<"fast" | "immediate"> = [];
      const started = Date.now();
      try {
        await until("READY", () => ready);
        for (let i = 0; i < RESTARTS; i++) {
          // Under load: each client has written since the last restart (the process recovered).
          const floor = acked;
          await until(`writes before restart ${i + 1}`, () => acked >= floor + CLIENTS);
          const mode = i % 2 === 0 ? "fast" : "immediate";
          await pg.restart(mode);
          modes.push(mode);
        }
        const floor = acked;
        await until("writes after the last restart", () => acked >= floor + 2 * CLIENTS);
        child.stdin.write("stop\n");
        await until("RESULT", () => result !== undefined, 120_000);
        const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), 30_000))]);
        expect(code).toBe(0);
      } finally {
        if (childExit === undefined) child.kill("SIGKILL");
      }
      const r = result!;

      // No crash: nothing reached the process-level detectors.
      expect({ crashes: r.crashes, crashLines }).toEqual({ crashes: [], crashLines: [] });
      // Every failure was the typed, retryable unavailability; the worker is still running.
      expect(r.unexpected).toEqual([]);
      expect(r.workerRunning).toBe(true);
      expect(r.jobs).toEqual({ done: expect.any(Number) });

      // Nothing acknowledged is lost, read back over a fresh connection.
      let memory: LangGraphMemory | undefined;
      let lostNotes: string[] = [];
      let lostTurns = 0;
      let checkpoints = 0;
      try {
        memory = await createMemory({ databaseUrl: pg.url, schema: SCHEMA, autoMigrate: false });
        const { rows } = await memory.db.query<{ text: string; n: number }>(
          "SELECT text, count(*)::int AS n FROM memories WHERE tenant_id = $1 AND text LIKE 'note %' GROUP BY text",
          [TENANT],
        );
        const stored = new Map(rows.map((row) => [row.text, row.n]));
        lostNotes = r.ackedNotes.filter((n) => stored.get(n) !== 1);
        expect(lostNotes).toEqual([]);
        const integrity = await checkpointIntegrity(memory.db);
        checkpoints = integrity.checkpoints;
        expect(integrity).toMatchObject({ orphanCheckpoints: 0, missingValueItems: 0, missingWriteItems: 0, rowsWithoutThread: 0, itemsBeyondCounter: 0 });
        const graph = buildChatGraph(memory);
        for (const [thread, texts] of Object.entries(r.ackedTurns)) {
          const c = Number(thread.split("-").pop());
          const state = await graph.getState(runConfig(thread, TENANT, `user-${c}`));
          const contents = ((state.values.messages ?? []) as BaseMessage[]).map((m) => String(m.content));
          const expected = texts.flatMap((t) => [t, answerFor(t)]);
          lostTurns += expected.filter((t) => !contents.includes(t)).length / 2;
          expect({ thread, contents }).toEqual({ thread, contents: expected });
        }
      } finally {
        await memory?.close();
      }

      report("server restart loop", {
        restarts: modes.length,
        fast: modes.filter((m) => m === "fast").length,
        immediate: modes.filter((m) => m === "immediate").length,
        clients: CLIENTS,
        seconds: Math.round((Date.now() - started) / 1000),
        crashes: r.crashes.length,
        ackedTurns: Object.values(r.ackedTurns).reduce((s, t) => s + t.length, 0),
        ackedMemories: r.ackedNotes.length,
        lostMemories: lostNotes.length,
        lostTurns,
        retriedFailures: Object.values(r.failures).reduce((s, n) => s + n, 0),
        failuresByOp: r.failures,
        checkpoints,
        jobsDone: r.jobs.done,
        workerErrors: r.workerErrors,
      });
    },
    600_000,
  );
});
