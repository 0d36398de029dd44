/**
 * A count with its noun in the right number, for messages people read: "1 memory", "2 memories",
 * "0 threads". `plural` defaults to the singular with an "s".
 *
 * @example
 * countOf(1, "memory", "memories"); // "1 memory"
 * countOf(3, "rule");               // "3 rules"
 */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
