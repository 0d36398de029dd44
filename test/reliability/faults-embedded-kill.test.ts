/**
 * Fault: the embedded engine's process is SIGKILLed right after a write is acknowledged. A child
 * process writes to a `pglite:` folder in a loop (a memory, a checkpointed chat turn and a job per
 * step, then "ACK <step>"); the test kills it the moment it reads the chosen ACK, while the child
 * is already busy with the next step. On reopen — in this process, with the dead child's lock
 * file still in the folder — every acknowledged step is there, whole, and the folder is usable.
 *
 * Why this holds without a setting (PGlite 0.5.14): with a `pglite:` folder PGlite mounts the
 * folder through Emscripten's NODEFS, whose writes are synchronous `fs.writeSync` calls, so a
 * commit's WAL is in the operating system's page cache when the query resolves; a killed process
 * loses nothing the OS has. PGlite starts Postgres with `-F` (fsync off) and NODEFS has no fsync,
 * so an OS crash or power loss may still lose recent commits (docs/security.md).
 * `relaxedDurability` only changes when IndexedDB/OPFS file systems flush; NodeFS ignores it.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseMessage } from "@langchain/core/messages";
import { createMemory } from "../../src/memory.js";
import { startTsx } from "./helpers/child.js";
import { checkpointIntegrity } from "./helpers/checkpoint-integrity.js";
import { report, size } from "./helpers/sizes.js";

const WRITER = join(process.cwd(), "test/reliability/fixtures/embedded-writer.ts");
const ROUNDS = size(2, 4);
const LOCK_FILE = "langgraph-memory.lock";

describe("the embedded engine killed (SIGKILL) right after an acknowledged write", () => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-kill-"));
  const dataDir = join(dir, "data");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`over ${ROUNDS} kills, every acknowledged write is there on reopen, whole, and the stale lock does not block`, async () => {
    const figures: Array<{ round: number; acked: number; killedAtStep: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Kill at different points: the first acknowledgement, or a few steps in.
      const killAt = [0, 3, 1, 5, 2, 8][round % 6];
      const writer = startTsx(WRITER, [dataDir, String(round)]);
      const ack = await writer.waitFor((l) => l === `ACK ${killAt}` || l.startsWith(`ACK ${killAt} `));
      writer.child.kill("SIGKILL");
      expect(await writer.exited).toEqual({ code: null, signal: "SIGKILL" });
      const acked = writer.lines().filter((l) => l.startsWith("ACK ")).map((l) => l.split(" "));
      expect(acked.length).toBeGreaterThanOrEqual(killAt + 1);
      expect(ack).toBe(acked[killAt].join(" "));

      // The dead process's lock file is still there; opening takes it over.
      expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(writer.child.pid));
      const memory = await createMemory({ databaseUrl: `pglite:${dataDir}` });
      try {
        expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(process.pid));
        const scope = { tenantId: "kill-co", userId: `round-${round}` };
        const stored = new Map((await memory.store.list(scope, { limit: 10_000 })).map((m) => [m.id, m.text]));
        for (const [, step, id] of acked) expect([step, stored.get(id)]).toEqual([step, `round ${round} step ${step}`]);
        // The chat turns: every acknowledged step's question and answer, in order (the step the
        // kill interrupted may or may not be there, and is whole if it is).
        const tuple = await memory.checkpointer.getTuple({ configurable: { thread_id: `kill-${round}` } });
        const contents = (tuple!.checkpoint.channel_values.messages as BaseMessage[]).map((m) => String(m.content));
        const expected = acked.flatMap(([, step]) => [`round ${round} step ${step}`, `ack: round ${round} step ${step}`]);
        expect(contents.slice(0, expected.length)).toEqual(expected);
        expect(contents.length - expected.length).toBeLessThanOrEqual(2);
        const { rows } = await memory.db.query<{ key: string }>("SELECT idempotency_key AS key FROM memory_jobs WHERE queue = 'kill-test' AND user_id = $1", [scope.userId]);
        const keys = new Set(rows.map((r) => r.key));
        for (const [, step] of acked) expect(keys.has(`kill-${round}:${step}`)).toBe(true);
        expect(await checkpointIntegrity(memory.db)).toMatchObject({ orphanCheckpoints: 0, missingValueItems: 0, missingWriteItems: 0, rowsWithoutThread: 0, itemsBeyondCounter: 0 });
        // Still writable after recovery.
        await memory.store.add(scope, { kind: "fact", text: `after the kill of round ${round}` });
        figures.push({ round, acked: acked.length, killedAtStep: killAt });
      } finally {
        await memory.close();
      }
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    }
    report("embedded engine SIGKILL", { rounds: ROUNDS, acknowledgedSteps: figures.reduce((s, f) => s + f.acked, 0), lost: 0 });
  }, 60_000 + ROUNDS * 30_000);
});
