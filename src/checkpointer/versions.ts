import { randomInt } from "node:crypto";

const FRACTION_DIGITS = 9;
const SCALE = 10 ** FRACTION_DIGITS;

/**
 * The next channel version: the next integer plus a random fraction, e.g. 42.482913201.
 *
 * Why not LangGraph's default integers: a fork (time travel, `updateState` on an older checkpoint)
 * counts up from an older version and would produce a version number that the original branch
 * already stored with a different value. Values are stored once per (thread, namespace, channel,
 * version), so the fork would read the other branch's value. The random fraction makes versions
 * unique per write (a clash needs the same integer and the same 9 random digits) while they stay
 * numbers that increase, which is all LangGraph asks (`BaseCheckpointSaver.getNextVersion`).
 */
export function nextChannelVersion(current: string | number | undefined): number {
  let counter = 0;
  if (typeof current === "number") counter = Math.floor(current);
  else if (typeof current === "string") counter = Number.parseInt(current, 10) || 0;
  // Built from its decimal text so it prints back as that text (no float noise like 9.8255198489999).
  return Number(`${counter + 1}.${String(randomInt(1, SCALE)).padStart(FRACTION_DIGITS, "0")}`);
}
