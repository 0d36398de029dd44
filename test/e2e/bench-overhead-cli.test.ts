/**
 * `langgraph-memory bench overhead --json`: the JSON fields other tools read (`added_p50_ms`,
 * `added_p95_ms`, …) and what the run did (every variant timed, jobs queued, memories marked used,
 * the candidate cache serving the turns after the first). Timings are not asserted, only present.
 */
import { describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

describe("langgraph-memory bench overhead", () => {
  it("writes the JSON report with the contract's fields", async () => {
    const json = join(mkdtempSync(join(tmpdir(), "lgm-bench-")), "overhead.json");
    const { stdout } = await exec(process.execPath, ["--import", "tsx", "src/cli/run.ts", "bench", "overhead", "--turns", "30", "--warmup", "0", "--memories", "20", "--json", json], {
      cwd: process.cwd(),
      maxBuffer: 16 * 1024 * 1024,
    });
    const r = JSON.parse(readFileSync(json, "utf8"));
    for (const field of ["added_p50_ms", "added_p95_ms", "target_added_p95_ms", "meets_target"]) expect(r).toHaveProperty(field);
    expect(typeof r.added_p50_ms).toBe("number");
    expect(r.meets_target).toBe(r.added_p95_ms <= 5);
    for (const part of [r.plain, r.with_memory, r.two_empty_nodes, r.memories_only_load, r.no_candidate_cache, r.nodes.load_memory, r.nodes.schedule_extraction]) {
      expect(part).toMatchObject({ n: 30 });
      expect(part.p95_ms).toBeGreaterThanOrEqual(part.p50_ms);
    }
    expect(r).toMatchObject({ engine: "pglite", turns: 30, memories_per_user: 20, embedder_cache_misses: 0 });
    expect(r.jobs.pending).toBeGreaterThan(0);
    expect(r.memory_uses_recorded).toBeGreaterThan(0);
    // Two graphs (60 turns) use the cached store: the first turn misses (and a turn racing the
    // background fill may), every other turn is a hit.
    expect(r.candidate_cache.hits + r.candidate_cache.misses).toBe(60);
    expect(r.candidate_cache.misses).toBeLessThanOrEqual(2);
    expect(r.candidate_cache).toMatchObject({ fills: 1, fill_errors: 0 });
    expect(stdout).toContain("ADDED: memory nodes");
  }, 240_000);
});
