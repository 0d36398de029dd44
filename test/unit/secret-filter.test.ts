/**
 * The secret and sensitive-data filter against the fixture corpus: every sensitive string is
 * refused with its category, every benign look-alike passes, and findings never carry the text.
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SENSITIVE_CATEGORIES, SPECIAL_CATEGORIES, isSpecialCategory, type SensitiveCategory } from "../../src/sensitive/categories.js";
import { bsnValid, cpfValid, germanTaxIdValid, ibanValid, luhnValid, nirValid, shannonEntropy, spanishIdValid, verhoeffValid } from "../../src/sensitive/checksums.js";
import { detectSensitive, isStorable, primaryCategory } from "../../src/sensitive/detect-sensitive.js";
import { isHighEntropyToken } from "../../src/sensitive/high-entropy.js";

interface Corpus {
  sensitive: Array<{ id: string; category: SensitiveCategory; text: string }>;
  benign: Array<{ id: string; text: string; note: string }>;
}
const corpus: Corpus = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/sensitive-corpus.json", import.meta.url)), "utf8"));

describe("the sensitive corpus", () => {
  it("is big enough and covers every category", () => {
    expect(corpus.sensitive.length).toBeGreaterThanOrEqual(120);
    expect(corpus.benign.length).toBeGreaterThanOrEqual(40);
    // The categories added after it (bank_account, criminal_record) are covered by the second corpus.
    const second: { sensitive: Array<{ text: string }> } = JSON.parse(readFileSync(fileURLToPath(new URL("../fixtures/secrets-corpus-2.json", import.meta.url)), "utf8"));
    const seen = new Set([...corpus.sensitive.map((s) => s.category), ...second.sensitive.flatMap((s) => detectSensitive(s.text).map((f) => f.category))]);
    for (const category of SENSITIVE_CATEGORIES) expect(seen).toContain(category);
    expect(new Set(corpus.sensitive.map((s) => s.id)).size).toBe(corpus.sensitive.length);
  });

  it.each(corpus.sensitive.map((s) => [s.id, s] as const))("%s is refused with its category", (_id, entry) => {
    const findings = detectSensitive(entry.text);
    // A token the corpus files as high entropy may now be named by a more specific secret family
    // ("signing secret …: X", "… as the encryption passphrase"): still a secret.
    if (entry.category === "high_entropy") expect(findings.some((f) => f.group === "secret")).toBe(true);
    else expect(primaryCategory(findings)).toBe(entry.category);
    expect(isStorable(entry.text)).toBe(false);
    // Special categories become storable when the app opts in; secrets and identifiers never do.
    expect(isStorable(entry.text, { allowSpecialCategory: true })).toBe(isSpecialCategory(entry.category));
  });

  it.each(corpus.benign.map((b) => [b.id, b] as const))("%s stays storable", (_id, entry) => {
    expect(detectSensitive(entry.text)).toEqual([]);
    expect(isStorable(entry.text)).toBe(true);
  });
});

describe("findings", () => {
  it("carry category, group, detector and offsets, never the matched text", () => {
    const text = "my key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z and my card 4111 1111 1111 1111";
    const findings = detectSensitive(text);
    expect(findings.map((f) => f.category)).toEqual(["api_key", "card_number"]);
    for (const f of findings) expect(Object.keys(f).sort()).toEqual(["category", "detector", "end", "group", "start"]);
    expect(JSON.stringify(findings)).not.toContain("sk-proj");
    expect(text.slice(findings[0].start, findings[0].end)).toBe("sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z");
    expect(text.slice(findings[1].start, findings[1].end)).toBe("4111 1111 1111 1111");
    expect(findings[0].group).toBe("secret");
    expect(findings[1].group).toBe("identifier");
  });

  it("report a secret once: a provider key is not also a high-entropy string", () => {
    const findings = detectSensitive("token ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6 please");
    expect(findings.map((f) => f.detector)).toEqual(["github_token"]);
  });

  it("find nothing in empty or ordinary text", () => {
    expect(detectSensitive("")).toEqual([]);
    expect(detectSensitive("User prefers metric units and lives in Berlin.")).toEqual([]);
    expect(SPECIAL_CATEGORIES.length).toBe(9); // art. 9, and criminal records (art. 10)
  });
});

describe("checksums", () => {
  it("Luhn accepts test cards and rejects a changed digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("378282246310005")).toBe(true);
    expect(luhnValid("12ab")).toBe(false);
  });

  it("IBAN mod-97 with the country's length", () => {
    expect(ibanValid("DE89370400440532013000")).toBe(true);
    expect(ibanValid("DE89370400440532013001")).toBe(false);
    expect(ibanValid("DE8937040044053201300")).toBe(false); // one digit short for DE
    expect(ibanValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanValid("XX82WEST12345698765432")).toBe(false);
  });

  it("national id check digits", () => {
    expect(verhoeffValid("234123412346")).toBe(true);
    expect(verhoeffValid("234123412347")).toBe(false);
    expect(bsnValid("111222333")).toBe(true);
    expect(bsnValid("111222334")).toBe(false);
    expect(spanishIdValid("12345678Z")).toBe(true);
    expect(spanishIdValid("12345678A")).toBe(false);
    expect(spanishIdValid("X1234567L")).toBe(true);
    expect(cpfValid("11144477735")).toBe(true);
    expect(cpfValid("11144477736")).toBe(false);
    expect(cpfValid("11111111111")).toBe(false);
    expect(nirValid("2550814168025" + "38")).toBe(true);
    expect(nirValid("2550814168025" + "39")).toBe(false);
    expect(germanTaxIdValid("86095742719")).toBe(true);
    expect(germanTaxIdValid("86095742718")).toBe(false);
  });

  it("entropy is 0 for one repeated character and log2(n) for n distinct ones", () => {
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBeCloseTo(2);
  });
});

describe("detector properties", () => {
  const alnum = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"), minLength: 36, maxLength: 36 });

  it("any GitHub, npm or Stripe-shaped token inside a sentence is an api_key", () => {
    fc.assert(
      fc.property(alnum, fc.constantFrom("ghp_", "npm_", "sk_live_"), (body, prefix) => {
        const category = primaryCategory(detectSensitive(`can you check why ${prefix}${body} is rejected?`));
        return category === "api_key";
      }),
      { numRuns: 200 },
    );
  });

  it("a Luhn-valid Visa number is a card; changing its check digit makes it an ordinary number", () => {
    const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 });
    fc.assert(
      fc.property(digits, (d) => {
        const body = `4${d.join("")}`;
        const check = [...Array(10).keys()].find((c) => luhnValid(`${body}${c}`))!;
        const card = `${body}${check}`;
        const wrong = `${body}${(check + 1) % 10}`;
        const grouped = (n: string) => n.replace(/(\d{4})(?=\d)/g, "$1 ");
        return (
          primaryCategory(detectSensitive(`pay with ${grouped(card)} please`)) === "card_number" &&
          !detectSensitive(`pay with ${grouped(wrong)} please`).some((f) => f.category === "card_number")
        );
      }),
      { numRuns: 200 },
    );
  });

  it("hex digests and UUIDs are never high-entropy secrets (decision: commit hashes are storable)", () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-f]{40}$/), (sha) => !isHighEntropyToken(sha)), { numRuns: 100 });
    fc.assert(fc.property(fc.uuid(), (uuid) => !isHighEntropyToken(uuid)), { numRuns: 100 });
  });
});
