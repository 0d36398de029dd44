/** Where "now" comes from (tests inject a clock they move; `ManualClock` from the jobs module fits). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
