/**
 * How big the reliability runs are. The default (`npm test`) runs a bounded version of every test
 * so the suite stays fast; `LGM_RELIABILITY_FULL=1` (set by CI) runs the long versions: 100
 * concurrent threads × 30 turns of load, the whole secrets corpus through extraction, every
 * prompt-injection template from every source, twice the property runs and isolation rounds —
 * sized so the folder takes about 4–5 minutes on 2 cores (docs/security.md has the figures).
 */
export const FULL = process.env.LGM_RELIABILITY_FULL === "1";

/** `small` by default, `full` under LGM_RELIABILITY_FULL=1. */
export function size(small: number, full: number): number {
  return FULL ? full : small;
}

/** A line the reliability tests print for docs/security.md (jest shows console output per file). */
export function report(label: string, figures: Record<string, unknown>): void {
  // eslint-disable-next-line no-console
  console.log(`[reliability${FULL ? " full" : ""}] ${label}: ${JSON.stringify(figures)}`);
}
