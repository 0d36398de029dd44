import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export interface LatencySummary {
  n: number;
  p50_ms: number;
  p95_ms: number;
  mean_ms: number;
}

/** Nearest-rank percentile of samples in milliseconds. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarize(samples: readonly number[]): LatencySummary {
  const mean = samples.reduce((s, v) => s + v, 0) / (samples.length || 1);
  return { n: samples.length, p50_ms: round(percentile(samples, 50)), p95_ms: round(percentile(samples, 95)), mean_ms: round(mean) };
}

/** Time one async call in milliseconds (high resolution). */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Ratio a/b rounded, NaN-safe. */
export function ratio(a: number, b: number, digits = 2): number {
  return b === 0 ? NaN : round(a / b, digits);
}

/** Write a benchmark's JSON result (creating folders). */
export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

/** Render rows as an aligned plain-text table. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === "number" ? String(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}
