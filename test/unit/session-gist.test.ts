/**
 * A past session's gist (`sessionGist`): a few sentences of its summary that say what it was
 * about, ranked by the offline summariser's sentence score, in their order, within the cap.
 */
import { describe, expect, it } from "@jest/globals";
import { GIST_SENTENCES, sessionGist } from "../../src/sessions/session-gist.js";
import { countTextTokens } from "../../src/tokens/count-text.js";

const PROSE = [
  "User: ok so my sister and i are finally doing lisbon!! flights are on may 14, can u help me plan",
  "Assistant: How many nights are you staying?",
  "User: 5 nights. lol",
  "User: (sorry my cat just walked across the keyboard)",
  "Assistant: I'll look for Alfama hotels under 1800 EUR for 5 nights.",
  "User: thanks",
  "User: also remind me to book the tram 28 tickets before we go",
].join("\n");

describe("session gist", () => {
  it("keeps the opening request and the sentences with facts, in order, on one line; asides, fillers and the assistant's questions go", () => {
    const gist = sessionGist(PROSE, 200);
    expect(gist.split("\n")).toHaveLength(1);
    expect(gist.startsWith("User: ok so my sister and i are finally doing lisbon!!")).toBe(true);
    expect(gist).toContain("Assistant: I'll look for Alfama hotels under 1800 EUR for 5 nights. User: also remind me to book the tram 28 tickets before we go.");
    expect(gist).not.toMatch(/keyboard|How many nights|thanks/);
    expect(gist.match(/[.!?](?=\s|$)/g)!.length).toBeLessThanOrEqual(GIST_SENTENCES + 1); // "!!" ends one sentence
  });

  it("stays within its token cap, cutting the best sentence at a word when nothing fits whole", () => {
    for (const cap of [60, 30, 12]) expect(countTextTokens(JSON.stringify(sessionGist(PROSE, cap)))).toBeLessThanOrEqual(cap);
    const long = `User: we booked the ${"really ".repeat(40)}nice Alfama hotel for May 14.`;
    const cut = sessionGist(long, 20);
    expect(cut.startsWith("User: we booked the really")).toBe(true);
    expect(cut.endsWith("…")).toBe(true);
    expect(countTextTokens(JSON.stringify(cut))).toBeLessThanOrEqual(20);
  });

  it("a model's prose stays prose, and short sentences still make a gist when nothing scores", () => {
    expect(sessionGist("The user planned a Lisbon trip with Ana for May 14. They chose Alfama.", 100)).toBe("The user planned a Lisbon trip with Ana for May 14. They chose Alfama.");
    expect(sessionGist("User has diabetes.", 100)).toBe("User has diabetes.");
    expect(sessionGist("", 100)).toBe("");
  });
});
