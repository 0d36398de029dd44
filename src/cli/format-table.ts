/**
 * Human-readable output of the user-control commands: aligned tables whose widest free-text
 * column shrinks to the terminal, and "key  value" blocks. Scripts use `--json` instead.
 */

export interface TableOptions {
  /** Total width to fit (default: the terminal's columns when stdout is a terminal, else unlimited). */
  maxWidth?: number;
  /** Index of the column that is cut with "…" when the table is too wide (default: the last). */
  flexColumn?: number;
}

/** Control characters (newlines, escapes) never reach the terminal: a memory text cannot move the cursor. */
export function printable(value: unknown): string {
  const s = value === null || value === undefined ? "-" : typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

function terminalWidth(): number {
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : Number.POSITIVE_INFINITY;
}

/**
 * @example
 * formatTable(["ID", "TEXT"], [["4f12…", "Prefers metric units."]]);
 * // ID     TEXT
 * // 4f12…  Prefers metric units.
 */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly unknown[]>, options: TableOptions = {}): string {
  const cells = rows.map((r) => headers.map((_, i) => printable(r[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => [...r[i]].length)));
  const flex = options.flexColumn ?? headers.length - 1;
  const maxWidth = options.maxWidth ?? terminalWidth();
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (headers.length - 1);
  if (total > maxWidth) widths[flex] = Math.max(headers[flex].length, 12, widths[flex] - (total - maxWidth));
  const fitCell = (s: string, w: number) => {
    const chars = [...s];
    const shown = chars.length > w ? `${chars.slice(0, w - 1).join("").trimEnd()}…` : s;
    return shown + " ".repeat(Math.max(0, w - [...shown].length));
  };
  const line = (r: readonly string[]) => r.map((c, i) => fitCell(c, widths[i])).join("  ").trimEnd();
  return [line(headers), ...cells.map(line)].join("\n");
}

/** "key  value" lines, keys aligned. */
export function formatFields(pairs: ReadonlyArray<readonly [string, unknown]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${printable(v)}`).join("\n");
}

/** ISO time → "2026-02-03 10:00" (UTC), "-" for none. */
export function shortTime(iso: string | Date | null | undefined): string {
  if (!iso) return "-";
  const s = typeof iso === "string" ? iso : iso.toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 16)}`;
}
