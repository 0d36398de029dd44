/**
 * The embedded engine's data-folder lock under a race (issue 17, item 10): 12 processes try to
 * lock one folder at the same moment, 25 rounds on a free folder and 25 on a folder holding a
 * stale lock (the pid of a process that has exited). Exactly one process may win each round;
 * every other one gets DB_OPEN_FAILED. Before the fix the lock file was created empty and its pid
 * written afterwards (a contender reading the empty file judged it stale and removed it), and a
 * stale lock was removed without re-checking (two contenders both judged it stale, and the second
 * removed the first one's fresh lock): two processes won 5 of 25 rounds (16 of 25 with a stale
 * lock).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { lockDataDir } from "../../src/db/data-dir-lock.js";
import { report } from "./helpers/sizes.js";

const CONTENDERS = 12;
const ROUNDS = 25;
const FIXTURE = join(process.cwd(), "test/reliability/fixtures/lock-contender.ts");
const LOCK_FILE = "langgraph-memory.lock";

interface Contender {
  proc: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
}

function startContender(): Contender {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const proc = spawn(process.execPath, ["--import", "tsx", FIXTURE], { env, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiting: Array<(l: string) => void> = [];
  createInterface({ input: proc.stdout }).on("line", (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else lines.push(l);
  });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<never>((_, reject) => proc.on("exit", (code) => reject(new Error(`contender exited (${code}): ${stderr}`))));
  return {
    proc,
    next: () => Promise.race([lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve)), exited]),
  };
}

describe(`${CONTENDERS} processes race for one data folder's lock`, () => {
  const base = mkdtempSync(join(tmpdir(), "lgm-lock-race-"));
  let contenders: Contender[] = [];
  let deadPid = 0;

  beforeAll(async () => {
    contenders = [...Array(CONTENDERS)].map(startContender);
    for (const c of contenders) expect(await c.next()).toBe("READY");
    // A pid that no longer runs: a process that has exited.
    deadPid = spawnSync(process.execPath, ["-e", "0"]).pid!;
  }, 120_000);
  afterAll(() => {
    for (const c of contenders) c.proc.kill("SIGKILL");
    rmSync(base, { recursive: true, force: true });
  });

  it.each([
    ["a free folder", "free"],
    ["a folder with a stale lock", "stale"],
    ["a stale lock whose takeover claim a process left as it died", "stale-claim"],
  ] as const)(
    "%s: one winner per round, every other contender refused with DB_OPEN_FAILED",
    async (label, kind) => {
      const winners: number[] = [];
      const otherOutcomes = new Set<string>();
      for (let round = 0; round < ROUNDS; round++) {
        const dataDir = join(base, `${kind}-${round}`);
        mkdirSync(dataDir, { recursive: true });
        if (kind !== "free") writeFileSync(join(dataDir, LOCK_FILE), String(deadPid));
        if (kind === "stale-claim") writeFileSync(join(dataDir, `${LOCK_FILE}.takeover-${deadPid}`), String(deadPid));
        const startAt = Date.now() + 200;
        for (const c of contenders) c.proc.stdin.write(`race ${dataDir} ${startAt}\n`);
        const outcomes = await Promise.all(contenders.map((c) => c.next()));
        const won = contenders.filter((_, i) => outcomes[i] === "WON");
        for (const o of outcomes) if (o !== "WON") otherOutcomes.add(o);
        winners.push(won.length);
        if (won.length === 1) expect(readFileSync(join(dataDir, LOCK_FILE), "utf8").trim()).toBe(String(won[0].proc.pid));
        for (const c of won) c.proc.stdin.write("release\n");
        for (const c of won) expect(await c.next()).toBe("RELEASED");
      }
      const roundsWonTwice = winners.filter((n) => n > 1).length;
      report(`data-folder lock race, ${label}`, { contenders: CONTENDERS, rounds: ROUNDS, roundsWonTwice, roundsWonByNone: winners.filter((n) => n === 0).length, maxWinners: Math.max(...winners) });
      expect(winners).toEqual(Array(ROUNDS).fill(1));
      expect([...otherOutcomes]).toEqual(["LOST DB_OPEN_FAILED"]);
    },
    120_000,
  );
});

describe("the data-folder lock in one process", () => {
  const base = mkdtempSync(join(tmpdir(), "lgm-lock-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("a lock file without a pid is being created: in use while young, stale once old", () => {
    const dataDir = join(base, "empty");
    mkdirSync(dataDir);
    const path = join(dataDir, LOCK_FILE);
    writeFileSync(path, "");
    expect(() => lockDataDir(dataDir)).toThrow(expect.objectContaining({ code: "DB_OPEN_FAILED" }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const release = lockDataDir(dataDir);
    expect(readFileSync(path, "utf8")).toBe(String(process.pid));
    release();
    expect(existsSync(path)).toBe(false);
  });

  it("refuses a second lock in the same process and a lock of a live process, naming its pid", () => {
    const dataDir = join(base, "live");
    const release = lockDataDir(dataDir);
    try {
      expect(() => lockDataDir(dataDir)).toThrow(/already open in this process/);
    } finally {
      release();
    }
    writeFileSync(join(dataDir, LOCK_FILE), String(process.ppid));
    expect(() => lockDataDir(dataDir)).toThrow(expect.objectContaining({ code: "DB_OPEN_FAILED", details: { pid: process.ppid } }));
    // Releasing never removes a lock this process does not hold.
    expect(readFileSync(join(dataDir, LOCK_FILE), "utf8")).toBe(String(process.ppid));
  });
});
