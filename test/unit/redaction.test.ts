/**
 * Redaction before queueing: `detectSecretsAndIdentifiers` (the scan redaction runs) must give
 * exactly what the full scan gives minus special-category findings, on every corpus text and on
 * texts built to exercise its fallback; and redacted text keeps no secret of the corpora.
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isSpecialCategory } from "../../src/extraction/sensitive/categories.js";
import { detectSecretsAndIdentifiers, detectSensitive } from "../../src/extraction/sensitive/detect-sensitive.js";
import { redactSecrets } from "../../src/extraction/write/redaction.js";

interface Corpus {
  sensitive: Array<{ id: string; category: string; text: string }>;
  benign?: Array<{ id: string; text: string }>;
}
const load = (name: string): Corpus => JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), "utf8"));
const corpora = [load("sensitive-corpus.json"), load("secrets-in-sentences.json")];
const texts = corpora.flatMap((c) => [...c.sensitive.map((s) => s.text), ...(c.benign ?? []).map((b) => b.text)]);
const secrets = corpora.flatMap((c) => c.sensitive.filter((s) => !isSpecialCategory(s.category as never)));

const withoutSpecial = (text: string) => detectSensitive(text).filter((f) => !isSpecialCategory(f.category));

/** A special-category word glued to a random token: the full scan drops the token's high-entropy finding. */
const gluedToHealthWord = ["I have diabetes:Zk7pW2mN8vR4tY6uaB3xQ9Lk", "my id is Zk7pW2mN8vR4tY6u/insulin/aB3xQ9Lk", "I'm gay.Zk7pW2mN8vR4tY6uaB3xQ9Lk"];

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

  it("keeps the full scan's answer where a special-category word explains a high-entropy token", () => {
    for (const text of gluedToHealthWord) {
      expect(detectSensitive(text).some((f) => isSpecialCategory(f.category))).toBe(true);
      expect(detectSecretsAndIdentifiers(text)).toEqual(withoutSpecial(text));
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
