/**
 * Which clock `run_after`, leases and `finished_at` are measured by. By default the database's
 * (`now()`): every process that enqueues, claims or extends a lease then agrees on time, whatever
 * the skew between application hosts. Tests inject a clock to move time without waiting; every
 * JobQueue/JobWorker sharing a table must then use the same injected clock.
 */
export interface JobClock {
  now(): Date;
}

/** The `$n` value for a `COALESCE($n::timestamptz, now())` clock parameter: null means the database clock. */
export function clockParam(clock: JobClock | undefined): string | null {
  return clock ? clock.now().toISOString() : null;
}

/** A clock tests move by hand. */
export class ManualClock implements JobClock {
  private t: number;
  constructor(start: Date | number = Date.UTC(2030, 0, 1)) {
    this.t = typeof start === "number" ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
