/**
 * The retrieval benchmarks' 3,000 made-up words (two to four syllables), drawn from `rand` so a
 * seeded generator gives the same vocabulary, and the same draws after it, on every run.
 */
export function syntheticVocabulary(rand: () => number): string[] {
  const syllables = ["ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "ni", "pra", "gu", "ste", "ban", "fi", "mor", "tal", "que", "zo"];
  return Array.from({ length: 3000 }, (_, i) => {
    let w = "";
    for (let s = 0, n = 2 + (i % 3); s < n; s++) w += syllables[Math.floor(rand() * syllables.length)];
    return w;
  });
}
