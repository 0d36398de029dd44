/**
 * The clock of one scenario: the runner sets it to each session's and probe's `at`, and moves it a
 * second per turn inside a session, so creation order, recency, expiry and retention follow the
 * scenario's calendar instead of the machine's.
 */
export class ScenarioClock {
  private t: number;

  constructor(start: string | Date) {
    this.t = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.t);
  }

  /** Set the clock to an instant (an ISO string or a Date). */
  set(at: string | Date): void {
    const t = new Date(at).getTime();
    if (Number.isNaN(t)) throw new Error(`not a date: ${String(at)}`);
    this.t = t;
  }

  advance(ms: number): void {
    this.t += ms;
  }
}
