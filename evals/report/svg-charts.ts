/** Inline SVG charts for the HTML report: plain markup, no script, readable without CSS. */

export interface Bar {
  label: string;
  value: number;
  /** Text after the value (e.g. "2 stale"). */
  note?: string;
  /** Drawn in red. */
  bad?: boolean;
}

const esc = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Horizontal bars, one row per item, scaled to `max` (default the largest value). */
export function barChart(bars: readonly Bar[], options: { width?: number; max?: number; format?: (v: number) => string } = {}): string {
  const width = options.width ?? 520;
  const row = 20;
  const labelWidth = Math.min(260, Math.max(90, ...bars.map((b) => b.label.length * 6.2)));
  const valueWidth = 110;
  const plot = Math.max(60, width - labelWidth - valueWidth);
  const max = options.max ?? Math.max(1e-9, ...bars.map((b) => b.value));
  const format = options.format ?? ((v: number) => String(v));
  const height = Math.max(row, bars.length * row) + 4;
  const rows = bars
    .map((b, i) => {
      const y = i * row + 2;
      const w = Math.max(0, Math.min(1, b.value / max)) * plot;
      const color = b.bad ? "#cf222e" : "#1a7f37";
      return `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${esc(b.label)}</text><rect x="${labelWidth}" y="${y + 3}" width="${plot}" height="${row - 8}" fill="#eaeef2"/><rect x="${labelWidth}" y="${y + 3}" width="${w.toFixed(1)}" height="${row - 8}" fill="${color}"><title>${esc(`${b.label}: ${format(b.value)}`)}</title></rect><text x="${labelWidth + plot + 6}" y="${y + 13}">${esc(format(b.value))}${b.note ? ` <tspan fill="#cf222e">${esc(b.note)}</tspan>` : ""}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${rows}</svg>`;
}

/** A histogram of values in `bins` equal-width bins, with the count above each bar. */
export function histogram(values: readonly number[], options: { width?: number; height?: number; bins?: number; label?: string } = {}): string {
  const width = options.width ?? 420;
  const height = options.height ?? 180;
  const bins = Math.max(1, options.bins ?? 10);
  if (values.length === 0) return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40"><text x="0" y="20">no data</text></svg>`;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(((v - lo) / span) * bins))]++;
  const top = Math.max(...counts);
  const left = 8;
  const bottom = 34;
  const plotH = height - bottom - 14;
  const barW = (width - left * 2) / bins;
  const bars = counts
    .map((c, i) => {
      const h = (c / top) * plotH;
      const x = left + i * barW;
      const y = height - bottom - h;
      const from = Math.round(lo + (span * i) / bins);
      return `<rect x="${(x + 1).toFixed(1)}" y="${y.toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#0969da"><title>${c} between ${from} and ${Math.round(lo + (span * (i + 1)) / bins)}</title></rect>${c > 0 ? `<text x="${(x + barW / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" text-anchor="middle">${c}</text>` : ""}`;
    })
    .join("");
  const axis = `<line x1="${left}" y1="${height - bottom}" x2="${width - left}" y2="${height - bottom}" stroke="#8c959f"/><text x="${left}" y="${height - bottom + 14}">${Math.round(lo)}</text><text x="${width - left}" y="${height - bottom + 14}" text-anchor="end">${Math.round(hi)}</text><text x="${width / 2}" y="${height - 6}" text-anchor="middle">${esc(options.label ?? "")} (n = ${values.length})</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${bars}${axis}</svg>`;
}
