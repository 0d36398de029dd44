import { describe, expect, it } from "@jest/globals";
import { seededRandom } from "../../src/cli/bench/seeded-random.js";
import { formatMemoryContext } from "../../src/context/format-memories.js";
import { memoryBlockTokens } from "../../src/context/memory-block-tokens.js";
import { capMemoriesByTokens } from "../../src/retrieval/retrieve-memories.js";
import type { RetrievedMemory } from "../../src/state/types.js";
import { countTextTokens, type TokenEncoding } from "../../src/tokens/count-text.js";

// Pieces chosen to stress token boundaries at the ends of lines: punctuation runs, quotes and
// backslashes (escaped by JSON), whitespace and raw newlines (escaped), slashes (cl100k/o200k
// join "/" to a punctuation run's newlines), digits, contractions, CJK, emoji, U+2028.
const PIECES = [
  "Prefers", "metric", "units", "lives", "in", "Lisbon", "Zürich", "naïve", "café", "東京", "に住んでいる", "🙂", "👩‍💻", "1234567", "42",
  "'s", "'ll", "don't", "I'm", ".", "!", "?", "...", "…", ",", ";", ":", ")", "(", "]", "[", "\"", "'", "\\", "/", "//", "-", "—", "*",
  " ", "  ", "\t", "\n", "\r\n", "\u2028", "https://example.com/a/b", "C:\\Users\\x", "a/b/", "x:", "<tag>", "{\"k\": 1}", "$5.00", "#1",
];

function randomText(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 12);
  let text = "";
  for (let i = 0; i < n; i++) text += (rand() < 0.5 && i > 0 ? " " : "") + PIECES[Math.floor(rand() * PIECES.length)];
  return text;
}

const KINDS = ["preference", "fact", "episode", "procedure"] as const;

function randomMemory(rand: () => number, i: number): RetrievedMemory {
  const day = 1 + Math.floor(rand() * 28);
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    kind: KINDS[Math.floor(rand() * KINDS.length)],
    text: randomText(rand),
    score: rand(),
    similarity: rand(),
    recency: rand(),
    scope: "user",
    createdAt: `2026-03-${String(day).padStart(2, "0")}T10:00:00.000Z`,
    lastUsedAt: null,
    tokens: 0,
    metadata: {},
  };
}

/** What capMemoriesByTokens did before it counted line by line: count each candidate block whole. */
function capByWholeBlocks(memories: readonly RetrievedMemory[], maxTokens: number, encoding: TokenEncoding) {
  const kept: RetrievedMemory[] = [];
  let tokens = 0;
  for (const m of memories) {
    const candidate = countTextTokens(formatMemoryContext([...kept, m]), encoding);
    if (candidate <= maxTokens) {
      kept.push(m);
      tokens = candidate;
    }
  }
  return { ids: kept.map((m) => m.id), tokens };
}

describe.each(["o200k_base", "cl100k_base"] as const)("memory block tokens (%s)", (encoding) => {
  it("equal the count of the whole rendered block, over 1,500 random blocks", () => {
    const rand = seededRandom(encoding === "o200k_base" ? 7 : 11);
    const mismatches: Array<{ texts: string[]; lines: number; whole: number }> = [];
    let lineBoundaryMerges = 0;
    for (let b = 0; b < 1_500; b++) {
      const memories = Array.from({ length: 1 + Math.floor(rand() * 10) }, (_, i) => randomMemory(rand, i));
      const whole = countTextTokens(formatMemoryContext(memories), encoding);
      const lines = memoryBlockTokens(memories, encoding);
      if (lines !== whole) mismatches.push({ texts: memories.map((m) => m.text), lines, whole });
      // Not vacuous: a newline often merges into the token before it (`."\n`), so counting lines
      // alone and adding one per newline would be wrong.
      const naive = memories.reduce((n, m) => n + countTextTokens(formatMemoryContext([m]).split("\n")[1], encoding), 0) +
        countTextTokens(formatMemoryContext(memories).split("\n")[0], encoding) + memories.length;
      if (naive !== whole) lineBoundaryMerges++;
    }
    expect(mismatches).toEqual([]);
    expect(lineBoundaryMerges).toBeGreaterThan(100);
  });

  it("capMemoriesByTokens keeps and counts what counting whole blocks did, for every budget", () => {
    const rand = seededRandom(encoding === "o200k_base" ? 3 : 5);
    for (let b = 0; b < 150; b++) {
      const memories = Array.from({ length: 1 + Math.floor(rand() * 12) }, (_, i) => randomMemory(rand, i));
      const full = countTextTokens(formatMemoryContext(memories), encoding);
      for (const budget of [0, 40, 60, Math.floor(full / 2), full - 1, full, full + 5]) {
        const got = capMemoriesByTokens(memories, budget, encoding);
        expect({ ids: got.memories.map((m) => m.id), tokens: got.tokens }).toEqual(capByWholeBlocks(memories, budget, encoding));
      }
    }
  });

  it("an empty block is zero tokens", () => {
    expect(memoryBlockTokens([], encoding)).toBe(0);
    expect(capMemoriesByTokens([], 100, encoding)).toEqual({ memories: [], tokens: 0 });
  });
});
