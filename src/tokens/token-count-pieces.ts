/**
 * Where a text is cut before it is handed to the BPE encoder. `gpt-tokenizer`'s merge step is
 * quadratic in the length of one pre-token, and a run without spaces is one pre-token: a long
 * text without spaces (Japanese, a pasted blob) would block the event loop for seconds, and a
 * large one never finish (docs/short-term-memory.md has the figures). Counting piece by piece keeps every encoder call short, so the work is
 * linear in the text (and bounded past {@link MAX_EXACT_CHARS}, see {@link planTokenCount}).
 *
 * Cuts fall before a space that is followed by a non-space character: both encodings (o200k,
 * cl100k) start a new pre-token there (" word"; a longer run of spaces before it is a pre-token of
 * its own), and nothing before it looks ahead past it, so the pieces' counts add up to the count of
 * the whole; failing that, before punctuation that follows a letter. Only a run of more than
 * {@link PIECE_CHARS} characters with neither is cut inside the run (never inside a
 * surrogate pair), which may add about one token per cut: 128 characters of such text are ~100
 * CJK tokens or ~30 base64 tokens, so the count stays within ~1–3 % there.
 */

/** Longest piece the encoder is given. */
export const PIECE_CHARS = 128;
/** Texts up to this length are counted whole (piece by piece); longer ones are estimated from samples. */
export const MAX_EXACT_CHARS = 262_144;
/** Past {@link MAX_EXACT_CHARS}: this many evenly spaced windows… */
export const SAMPLE_WINDOWS = 32;
/** …of this many characters each are counted, and the total scaled to the text's length. */
export const SAMPLE_WINDOW_CHARS = 2_048;

export interface TokenCountPlan {
  /** [start, end) character ranges handed to the encoder, in order. */
  pieces: Array<[number, number]>;
  /** The pieces cover only samples: scale their count by `text.length / sampledChars`. */
  estimate: boolean;
  sampledChars: number;
}

/**
 * The pieces a text is counted in: all of it up to {@link MAX_EXACT_CHARS}, else
 * {@link SAMPLE_WINDOWS} windows spread evenly over it. Pure; linear in what it covers.
 *
 * @example
 * planTokenCount("Prefers metric units.").pieces // [[0, 21]]
 */
export function planTokenCount(text: string): TokenCountPlan {
  if (text.length <= MAX_EXACT_CHARS) return { pieces: piecesOf(text, 0, text.length), estimate: false, sampledChars: text.length };
  const pieces: Array<[number, number]> = [];
  let sampledChars = 0;
  const stride = Math.floor((text.length - SAMPLE_WINDOW_CHARS) / (SAMPLE_WINDOWS - 1));
  for (let w = 0; w < SAMPLE_WINDOWS; w++) {
    const start = alignStart(text, w * stride);
    const end = alignEnd(text, Math.min(text.length, start + SAMPLE_WINDOW_CHARS));
    pieces.push(...piecesOf(text, start, end));
    sampledChars += end - start;
  }
  return { pieces, estimate: true, sampledChars };
}

/**
 * Count `text` with `count` (an encoder's `countTokens`) piece by piece, as {@link planTokenCount}
 * plans it: the sum of the pieces, scaled to the whole length when the plan sampled.
 *
 * @example
 * countInPieces("Prefers metric units.", countTokens) // → 5
 */
export function countInPieces(text: string, count: (piece: string) => number): number {
  if (text.length <= PIECE_CHARS) return count(text);
  const plan = planTokenCount(text);
  let tokens = 0;
  for (const [start, end] of plan.pieces) tokens += count(text.slice(start, end));
  return plan.estimate ? Math.round((tokens * text.length) / plan.sampledChars) : tokens;
}

/** Cut [from, to) into pieces of at most PIECE_CHARS, preferring cuts before a space that precedes a non-space. */
function piecesOf(text: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = from;
  while (to - start > PIECE_CHARS) {
    let cut = -1;
    // The last clean cut in the piece's second half.
    for (let i = start + PIECE_CHARS; i > start + PIECE_CHARS / 2; i--) {
      if (text.charCodeAt(i) === 32 && i + 1 < to && !isSpace(text.charCodeAt(i + 1))) {
        cut = i;
        break;
      }
    }
    // No space: before punctuation that follows a letter ("bench-context" → "bench", "-context"),
    // also where both encodings start a pre-token (not before a quote: "'t" belongs to "don").
    for (let i = start + PIECE_CHARS; cut < 0 && i > start + PIECE_CHARS / 2; i--) {
      if (PUNCTUATION.test(text[i]) && LETTER.test(text[i - 1])) cut = i;
    }
    // Inside a run of spaces (aligned tables, indented code) the window may hold no clean cut; a
    // cut inside the run changes how the encoder splits it, so look a few pieces ahead for its end.
    for (let i = start + PIECE_CHARS + 1; cut < 0 && i < Math.min(to - 1, start + 4 * PIECE_CHARS); i++) {
      if (text.charCodeAt(i) === 32 && !isSpace(text.charCodeAt(i + 1))) cut = i;
    }
    if (cut < 0) cut = alignEnd(text, start + PIECE_CHARS);
    out.push([start, cut]);
    start = cut;
  }
  if (to > start) out.push([start, to]);
  return out;
}

const PUNCTUATION = /^[!#$%&()*+,\-./:;<=>?@[\\\]^_`{|}~]$/;
const LETTER = /^\p{L}$/u;

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/** Move a cut back by one when it would separate a surrogate pair. */
function alignEnd(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const prev = text.charCodeAt(at - 1);
  return prev >= 0xd800 && prev <= 0xdbff ? at - 1 : at;
}

function alignStart(text: string, at: number): number {
  return alignEnd(text, at);
}
