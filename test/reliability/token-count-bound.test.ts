/**
 * Token counting does work linear in the text and bounded past a length, whatever the text is
 * made of. Before, a run without spaces was one pre-token for the BPE encoder, whose merge step is
 * quadratic in it: 100,000 characters blocked the event loop for 6.9 s, 300,000 for 66.7 s, 10 MB
 * never finished. Work is measured as what the real encoder is given (calls, characters, and the
 * sum of squared piece lengths — the encoder's quadratic cost), never as time.
 */
import { describe, expect, it } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { TOKEN_ENCODERS, countTextTokens } from "../../src/tokens/count-text.js";
import { MAX_EXACT_CHARS, PIECE_CHARS, SAMPLE_WINDOWS, SAMPLE_WINDOW_CHARS, countInPieces } from "../../src/tokens/token-count-pieces.js";
import { isWellFormedText } from "../../src/core/well-formed-text.js";
import { report } from "./helpers/sizes.js";

/** The real encoder, wrapped to record what it is given (refusing a piece it could take minutes over). */
function recordingEncoder(count = countO200k) {
  const work = { calls: 0, chars: 0, squares: 0, longest: 0 };
  const encode = (piece: string) => {
    if (piece.length > 16_384) throw new Error(`the encoder was given ${piece.length} characters at once`);
    work.calls++;
    work.chars += piece.length;
    work.squares += piece.length * piece.length;
    work.longest = Math.max(work.longest, piece.length);
    return count(piece);
  };
  return { encode, work };
}

const SHAPES: Record<string, (n: number) => string> = {
  "one letter": (n) => "a".repeat(n),
  "CJK": (n) => "漢字かなカナ".repeat(Math.ceil(n / 6)).slice(0, n),
  "base64": (n) => randomBytes(Math.ceil(n * 0.75) + 3).toString("base64").slice(0, n),
  "spaces": (n) => " ".repeat(n),
  "dashes": (n) => "-".repeat(n),
  "emoji": (n) => "😀".repeat(Math.ceil(n / 2)).slice(0, n - (n % 2)),
  "words": (n) => "the user lives in Porto and prefers metric units. ".repeat(Math.ceil(n / 50)).slice(0, n),
};

describe("token counting is bounded", () => {
  it("every shape of text: each encoder call gets at most PIECE_CHARS characters; 10 MB costs what 256 KiB does", () => {
    const figures: Record<string, unknown> = {};
    for (const [shape, make] of Object.entries(SHAPES)) {
      const work: Record<number, ReturnType<typeof recordingEncoder>["work"]> = {};
      for (const n of [100_000, 1_000_000, 10_000_000]) {
        const { encode, work: w } = recordingEncoder();
        TOKEN_ENCODERS.o200k_base = encode;
        try {
          expect(countTextTokens(make(n))).toBeGreaterThan(0);
        } finally {
          TOKEN_ENCODERS.o200k_base = countO200k;
        }
        work[n] = w;
        expect([shape, n, w.longest <= PIECE_CHARS]).toEqual([shape, n, true]);
        // The encoder's quadratic term is at most linear in what it is given.
        expect(w.squares).toBeLessThanOrEqual(PIECE_CHARS * w.chars);
      }
      // Exact up to MAX_EXACT_CHARS (work ∝ length), sampled past it (work constant).
      expect(work[100_000].chars).toBe(100_000);
      expect(work[1_000_000].chars).toBeLessThanOrEqual(SAMPLE_WINDOWS * SAMPLE_WINDOW_CHARS);
      expect(work[10_000_000].chars).toBeLessThanOrEqual(SAMPLE_WINDOWS * SAMPLE_WINDOW_CHARS);
      expect(work[10_000_000].calls).toBeLessThanOrEqual(work[1_000_000].calls + SAMPLE_WINDOWS);
      figures[shape] = { "100k": work[100_000].calls, "1M": work[1_000_000].calls, "10M": work[10_000_000].calls };
    }
    report("token count: encoder calls per text length", { pieceChars: PIECE_CHARS, maxExactChars: MAX_EXACT_CHARS, sampledChars: SAMPLE_WINDOWS * SAMPLE_WINDOW_CHARS, calls: figures });
  });

  it("exact on ordinary text: the repository's docs, sources and fixtures without a long run of non-space characters count the same piece by piece as whole, on both encodings", () => {
    let files = 0;
    let differ = 0;
    let worst = 0;
    for (const dir of ["docs", "src/sessions", "src/jobs", "migrations", "test/fixtures"]) {
      for (const f of readdirSync(dir)) {
        if (!/\.(md|ts|sql|json)$/.test(f)) continue;
        const text = readFileSync(`${dir}/${f}`, "utf8");
        // A run longer than a piece without a space may be cut inside (keys in fixtures): the 3 % case below.
        if (text.length > MAX_EXACT_CHARS || new RegExp(`\\S{${PIECE_CHARS + 1},}`).test(text)) continue;
        files++;
        for (const [whole, encoding] of [[countO200k, "o200k_base"], [countCl100k, "cl100k_base"]] as const) {
          const exact = whole(text);
          const pieced = countTextTokens(text, encoding);
          if (pieced !== exact) differ++;
          worst = Math.max(worst, Math.abs(pieced - exact) / exact);
        }
      }
    }
    expect(files).toBeGreaterThan(20);
    expect({ differ, worst }).toEqual({ differ: 0, worst: 0 });
  });

  it("close on runs without spaces (cut inside the run): within 3 % of the encoder's own count", () => {
    for (const [shape, make] of Object.entries(SHAPES)) {
      const text = make(8_000);
      const exact = countO200k(text);
      const pieced = countTextTokens(text);
      expect([shape, Math.abs(pieced - exact) / exact <= 0.03]).toEqual([shape, true]);
    }
  });

  it("past MAX_EXACT_CHARS the estimate stays close for uniform text, and never splits a surrogate pair", () => {
    const unit = "The user lives in Porto and prefers metric units. 漢字かな 😀 ";
    const text = unit.repeat(Math.ceil(3_000_000 / unit.length));
    const perUnit = countO200k(unit.repeat(100)) / 100;
    const estimate = countTextTokens(text);
    expect(Math.abs(estimate - perUnit * (text.length / unit.length)) / estimate).toBeLessThan(0.02);
    const pieces: string[] = [];
    countInPieces("😀".repeat(200_000) + "x".repeat(300_000), (p) => (pieces.push(p), 1));
    for (const p of pieces) expect(isWellFormedText(p)).toBe(true);
  });
});
