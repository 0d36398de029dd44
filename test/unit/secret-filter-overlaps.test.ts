/**
 * Regressions for two leaks of the secret filter:
 * - a secret next to or glued to a special-category word ("I have diabetes:Zk7p…"): the health
 *   finding overlapped the token's high-entropy finding and cancelled it, so the token stayed in the
 *   queued payload and passed the write policy when the app allows special categories;
 * - a Twilio auth token after "Twilio account AC… with auth token": the SID pushed "twilio" too far
 *   from "token", so the token was found only once the SID had been redacted.
 * Each generated text goes through the payload serialisation and the write policy.
 */
import { describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import type { ExtractionSource, MemoryCandidate } from "../../src/core/candidate.js";
import { serializeMessage } from "../../src/extraction/node/serialize-messages.js";
import { groupOf, isSpecialCategory } from "../../src/sensitive/categories.js";
import { detectSensitive, isStorable } from "../../src/sensitive/detect-sensitive.js";
import { redactSecrets } from "../../src/sensitive/redaction.js";
import { applyWritePolicy } from "../../src/extraction/write-policy.js";
import {
  DIABETES_GLUED,
  DIABETES_GLUED_SECRET,
  PLAIN_HEX_TEXTS,
  SPECIAL_OVERLAP_CASES,
  TWILIO_CASES,
  allowedPiece,
  survivingPiece,
  type OverlapCase,
} from "./fixtures/secret-overlap-cases.js";

const cases: OverlapCase[] = [...SPECIAL_OVERLAP_CASES, ...TWILIO_CASES];
const user = (id: string, text: string): ExtractionSource => ({ id, text, origin: "user", index: 0 });
const candidate = (text: string, sourceMessageId = "m1"): MemoryCandidate => ({ kind: "fact", text, confidence: 0.95, action: "add", sourceMessageId, source: "user", extractor: "llm" });
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** What of a case's secrets survives in a text: whole values, or more than an edge character of one. */
function leaked(c: OverlapCase, text: string): string[] {
  return c.secrets.filter((s) => text.includes(s) || survivingPiece(s, c.text, text).length > allowedPiece(s));
}

describe("the generated overlap cases", () => {
  it("are many, and most put a special-category finding on top of a secret", () => {
    expect(SPECIAL_OVERLAP_CASES.length).toBeGreaterThan(300);
    expect(TWILIO_CASES.length).toBeGreaterThanOrEqual(8);
    const overlapping = SPECIAL_OVERLAP_CASES.filter((c) => {
      const findings = detectSensitive(c.text);
      const special = findings.filter((f) => isSpecialCategory(f.category));
      return special.some((s) => findings.some((f) => !isSpecialCategory(f.category) && overlaps(s, f)));
    });
    // Not vacuous: the shape that leaked (a special-category span over the secret's token) is common here.
    expect(overlapping.length).toBeGreaterThan(100);
    expect(SPECIAL_OVERLAP_CASES.filter((c) => detectSensitive(c.text).some((f) => isSpecialCategory(f.category))).length).toBeGreaterThan(250);
  });
});

describe("the queued payload", () => {
  it.each([[DIABETES_GLUED]])("the reported case %j is redacted", (text) => {
    expect(serializeMessage(new HumanMessage({ id: "m1", content: text })).text).toBe("I have [redacted:high_entropy]");
  });

  it("keeps no secret of any generated case (redactSecrets and serializeMessage)", () => {
    const failures: Array<{ name: string; redacted: string }> = [];
    for (const [i, c] of cases.entries()) {
      const redacted = redactSecrets(c.text);
      const payload = serializeMessage(new HumanMessage({ id: `m-${i}`, content: c.text })).text;
      if (leaked(c, redacted).length > 0 || leaked(c, payload).length > 0) failures.push({ name: c.name, redacted });
      expect(redacted).toContain("[redacted:");
    }
    expect(failures).toEqual([]);
  });

  it("keeps the special-category word when it is not glued to the secret (the extractor needs the context)", () => {
    expect(redactSecrets(`I have diabetes ${DIABETES_GLUED_SECRET}`)).toBe("I have diabetes [redacted:high_entropy]");
    expect(redactSecrets(`I keep kosher, ${DIABETES_GLUED_SECRET}`)).toBe("I keep kosher, [redacted:high_entropy]");
  });
});

describe("Twilio credentials", () => {
  it("finds the auth token in the original text, with the SID before or after it", () => {
    for (const c of TWILIO_CASES) {
      const token = c.secrets[0];
      const start = c.text.indexOf(token);
      const found = detectSensitive(c.text).filter((f) => f.category === "api_key" && f.start === start && f.end === start + token.length);
      expect({ name: c.name, found: found.length }).toEqual({ name: c.name, found: 1 });
    }
  });

  it("leaves plain 32-hex strings alone without a Twilio SID or an auth-token cue (checksums, trace ids)", () => {
    for (const text of PLAIN_HEX_TEXTS) {
      expect({ text, findings: detectSensitive(text) }).toEqual({ text, findings: [] });
      expect(redactSecrets(text)).toBe(text);
      expect(isStorable(text)).toBe(true);
    }
  });
});

describe("the write policy", () => {
  it.each([
    ["special categories refused", false],
    ["special categories allowed", true],
  ])("refuses every generated case as a secret or identifier (%s)", (_label, allowSpecialCategory) => {
    const texts = cases.flatMap((c) => [c.text, `User said: ${c.text}`]);
    const result = applyWritePolicy(
      texts.map((t, i) => candidate(t, `m${i}`)),
      { config: { allowSpecialCategory }, sources: texts.map((t, i) => user(`m${i}`, t)) },
    );
    expect(result.accepted.map((c) => c.text)).toEqual([]);
    expect(result.rejected).toHaveLength(texts.length);
    // The category is the secret's, not the special-category word's that overlaps it.
    expect(result.rejected.filter((r) => r.reason !== "sensitive" || groupOf(r.category!) === "special_category")).toEqual([]);
  });

  it("refuses a paraphrase that keeps the token next to a health word, when special categories are allowed", () => {
    const result = applyWritePolicy([candidate(`User has diabetes:${DIABETES_GLUED_SECRET}.`)], {
      config: { allowSpecialCategory: true },
      sources: [user("m1", DIABETES_GLUED)],
    });
    expect(result.accepted).toEqual([]);
    expect(result.rejected).toEqual([expect.objectContaining({ reason: "sensitive", category: "high_entropy" })]);
    // The special-category part alone is still storable when the app allows it.
    const health = applyWritePolicy([candidate("User has diabetes.")], { config: { allowSpecialCategory: true }, sources: [user("m1", DIABETES_GLUED)] });
    expect(health.accepted.map((c) => c.text)).toEqual(["User has diabetes."]);
  });
});
