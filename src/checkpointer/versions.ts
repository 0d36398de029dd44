/**
 * The next channel version: the next integer (LangGraph's default), also after versions another
 * saver wrote as strings ("00000000000000000000000000000002.0.24…") or as fractions.
 *
 * Versions need not be unique across forks here: a checkpoint refers to its values directly
 * (`checkpoints.vals`), and an unchanged channel takes its reference from the parent, so two
 * branches that reach the same version number never read each other's values.
 */
export function nextChannelVersion(current: string | number | undefined): number {
  let counter = 0;
  if (typeof current === "number" && Number.isFinite(current)) counter = Math.floor(current);
  else if (typeof current === "string") counter = Number.parseInt(current, 10) || 0;
  return counter + 1;
}
