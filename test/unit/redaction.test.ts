/**
 * Redaction before queueing: `detectSecretsAndIdentifiers` (the scan redaction runs) must give
 * exactly what the full scan gives minus special-category findings, on every corpus text and on
 * texts built to exercise overlaps; and redacted text keeps no secret of the corpora — judged by
 * hand-picked secret values (fixtures/corpus-secret-values.json), not by the detectors' own spans.
 */
import { describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serializeMessage } from "../../src/extraction/node/serialize-messages.js";
import { isSpecialCategory } from "../../src/sensitive/categories.js";
import { detectSecretsAndIdentifiers, detectSensitive } from "../../src/sensitive/detect-sensitive.js";
import { redactSecrets } from "../../src/sensitive/redaction.js";
import { CORPUS_SECRET_VALUES, DIABETES_GLUED, DIABETES_GLUED_SECRET, allowedPiece, survivingPiece } from "./fixtures/secret-overlap-cases.js";

interface Corpus {
  sensitive: Array<{ id: string; category: string; text: string }>;
  benign?: Array<{ id: string; text: string }>;
}
const load = (name: string): Corpus => JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), "utf8"));
const corpora = [load("sensitive-corpus.json"), load("secrets-in-sentences.json")];
const texts = corpora.flatMap((c) => [...c.sensitive.map((s) => s.text), ...(c.benign ?? []).map((b) => b.text)]);
const secrets = corpora.flatMap((c) => c.sensitive.filter((s) => !isSpecialCategory(s.category as never)));
const byId = new Map(corpora.flatMap((c) => c.sensitive.map((s) => [s.id, s] as const)));

const withoutSpecial = (text: string) => detectSensitive(text).filter((f) => !isSpecialCategory(f.category));

/** A special-category word glued to a random token: the token must be found whatever the word. */
const gluedToHealthWord = [DIABETES_GLUED, "my id is Zk7pW2mN8vR4tY6u/insulin/aB3xQ9Lk", "I'm gay.Zk7pW2mN8vR4tY6uaB3xQ9Lk"];

describe("detectSecretsAndIdentifiers", () => {
  it("equals the full scan minus special-category findings on every corpus text and its pieces", () => {
    expect(texts.length).toBeGreaterThan(300);
    let withFindings = 0;
    for (const text of texts) {
      for (const piece of [text, text.slice(0, Math.floor(text.length / 2)), text.slice(Math.floor(text.length / 3)), `${text} ${text}`]) {
        const expected = withoutSpecial(piece);
        if (expected.length > 0) withFindings++;
        expect({ piece, findings: detectSecretsAndIdentifiers(piece) }).toEqual({ piece, findings: expected });
      }
    }
    expect(withFindings).toBeGreaterThan(200);
  });

  it("finds a high-entropy token a special-category word overlaps, as the full scan does", () => {
    for (const text of gluedToHealthWord) {
      const full = detectSensitive(text);
      const special = full.filter((f) => isSpecialCategory(f.category));
      const token = full.filter((f) => f.category === "high_entropy");
      expect(special.length).toBeGreaterThan(0);
      // The overlap is what used to cancel the token's finding.
      expect(special.some((s) => token.some((t) => t.start < s.end && s.start < t.end))).toBe(true);
      expect(detectSecretsAndIdentifiers(text)).toEqual(withoutSpecial(text));
      expect(detectSecretsAndIdentifiers(text).map((f) => f.category)).toEqual(["high_entropy"]);
    }
  });

  it("equals the full scan on random mixes of corpus fragments, special-category words and tokens", () => {
    const fragments = [...texts.map((t) => t.slice(0, 60)), ...gluedToHealthWord, "diabetic", "Catholic", "insulin", "Zk7pW2mN8vR4tY6uaB3xQ9Lk", "-", ":", "/"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 5 }), fc.constantFrom("", " ", "-", ":", "/"), (parts, glue) => {
        const text = parts.join(glue);
        expect(detectSecretsAndIdentifiers(text)).toEqual(withoutSpecial(text));
      }),
      { numRuns: 500 },
    );
  });

  it("finds nothing in an empty text", () => {
    expect(detectSecretsAndIdentifiers("")).toEqual([]);
  });
});

describe("redactSecrets", () => {
  it("cuts the secret value of every corpus entry, and changes no special-category or benign text", () => {
    const entries = corpora.flatMap((c) => [...c.sensitive, ...(c.benign ?? []).map((b) => ({ ...b, category: "benign" }))]);
    expect(entries.length).toBeGreaterThan(300);
    // Every secret, card, IBAN and id entry has hand-picked values, and every value is in its text.
    expect(Object.keys(CORPUS_SECRET_VALUES).sort()).toEqual(secrets.map((s) => s.id).sort());
    let values = 0;
    for (const entry of entries) {
      const redacted = redactSecrets(entry.text);
      const expected = CORPUS_SECRET_VALUES[entry.id];
      if (expected === undefined) {
        expect({ id: entry.id, redacted }).toEqual({ id: entry.id, redacted: entry.text });
        continue;
      }
      for (const value of expected) {
        values++;
        expect({ id: entry.id, value, inText: entry.text.includes(value) }).toEqual({ id: entry.id, value, inText: true });
        const piece = survivingPiece(value, entry.text, redacted);
        expect({ id: entry.id, kept: redacted.includes(value), tooLong: piece.length > allowedPiece(value) ? piece : "" }).toEqual({ id: entry.id, kept: false, tooLong: "" });
      }
    }
    expect(values).toBeGreaterThan(170);
  });

  it("api_key-20: the Twilio auth token is cut from the original text, not only once the SID is gone", () => {
    const entry = byId.get("api_key-20")!;
    const [sid, token] = CORPUS_SECRET_VALUES["api_key-20"];
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    const payload = serializeMessage(new HumanMessage({ id: "m-twilio", content: entry.text })).text;
    expect(payload).not.toContain(token);
    expect(payload).not.toContain(sid);
    expect(payload).toBe("Twilio account [redacted:api_key] with auth token [redacted:api_key], send SMS from it");
  });

  it("a token glued to a health word is cut, and the queued payload keeps no piece of it", () => {
    expect(redactSecrets(DIABETES_GLUED)).toBe("I have [redacted:high_entropy]");
    const payload = serializeMessage(new HumanMessage({ id: "m-diabetes", content: DIABETES_GLUED })).text;
    expect(payload).toBe("I have [redacted:high_entropy]");
    expect(payload).not.toContain(DIABETES_GLUED_SECRET);
  });

  it("cuts every secret, card, IBAN and national id found in a corpus text, cached or not", () => {
    expect(secrets.length).toBeGreaterThan(100);
    for (const entry of secrets) {
      const once = redactSecrets(entry.text);
      expect(redactSecrets(entry.text)).toBe(once); // second call: from the cache when long enough
      expect(once).toContain("[redacted:");
      for (const f of detectSecretsAndIdentifiers(entry.text)) {
        expect({ id: entry.id, kept: once.includes(entry.text.slice(f.start, f.end)) }).toEqual({ id: entry.id, kept: false });
      }
    }
  });
});

describe("a redaction mark through the rules extractor", () => {
  // Square brackets also open asides for the rules extractor: a mark read as one left "User's
  // account is." — a statement without its secret's shadow, which the write path no longer refused.
  it.each([
    "Remember that my bank account is [redacted:iban].",
    "Remember that my GitHub token is [redacted:api_key][redacted:token].",
    "Remember that my OpenAI key is [redacted:api_key] (the new one).",
  ])("keeps every mark of %j in the candidate, so the write path refuses it", async (text) => {
    const { extractMemories } = await import("../../src/extraction/extract-memories.js");
    const { redactedCategory } = await import("../../src/sensitive/redaction.js");
    const { memories } = await extractMemories([new HumanMessage({ id: "m1", content: text })]);
    expect(memories.length).toBeGreaterThan(0);
    for (const m of memories) expect(redactedCategory(m.text)).toBeDefined();
    const marks = (s: string) => s.match(/\[redacted:[a-z_]+\]/g) ?? [];
    for (const m of memories) expect(marks(m.text)).toEqual(marks(text));
  });
});
