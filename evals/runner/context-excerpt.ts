/**
 * A probe's context for the report: the whole text when it is short, else its start plus a window
 * around every string that decided the probe (a forbidden hit far down must stay visible).
 */
export function contextExcerpt(text: string, needles: readonly string[], maxChars: number, window = 160): string {
  if (text.length <= maxChars) return text;
  const lower = text.toLowerCase();
  const spans: Array<[number, number]> = [[0, maxChars]];
  for (const n of needles) {
    const at = lower.indexOf(n.toLowerCase());
    if (at >= 0 && at + n.length > maxChars) spans.push([Math.max(0, at - window), Math.min(text.length, at + n.length + window)]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([...s]);
  }
  const parts = merged.map(([a, b]) => text.slice(a, b));
  const tail = merged[merged.length - 1][1] < text.length ? " […]" : "";
  return parts.join(" […] ") + tail;
}
