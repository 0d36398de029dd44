/**
 * A UUID is a machine id, not an account: random UUIDs (tool-call, run and message ids the write
 * path stores in metadata) passed an IBAN's mod-97 or a card's Luhn check about 3 times in 10,000,
 * and the store then refused a benign memory over its own tool-call id (a CI flake of
 * write-sensitive.test.ts). The five UUIDs below were each flagged before the fix.
 */
import { describe, expect, it } from "@jest/globals";
import { randomUUID } from "node:crypto";
import { detectSensitive } from "../../src/sensitive/detect-sensitive.js";
import { sensitiveCategoryIn } from "../../src/sensitive/sensitive-content.js";

const FLAGGED_BEFORE = [
  "b3bb4629-1199-4725-9e71-feccad8e39d7", // payment_card (Luhn) across its groups
  "dab43e96-ba21-4087-b3c7-8461e3bcc612", // iban
  "73bf0aba-19e1-463e-be86-480ea5c28f03", // iban
  "c7280318-ad52-41a9-9854-283cee0df3bc", // iban
  "de857e3d-2e64-4203-82b4-6265d8cba156", // iban
];
const identifiers = (text: string) => detectSensitive(text).filter((f) => f.group === "identifier");

describe("secret filter: UUIDs are machine ids", () => {
  it.each(FLAGGED_BEFORE)("%s is not a financial number, alone, in an id, or in metadata", (uuid) => {
    expect(identifiers(uuid)).toEqual([]);
    expect(identifiers(`thread-1/tool-call-${uuid}`)).toEqual([]);
    expect(sensitiveCategoryIn({ lastSeenFrom: `thread-1/tool-call-${uuid}`, jobId: 7 }, { ignoreHighEntropy: true })).toBeUndefined();
  });

  it("the number itself, outside a UUID, is still found", () => {
    // The IBAN-shaped run inside "de857e3d-2e64-…": spans 19..45 of "thread-1/tool-call-<uuid>", i.e. from its first character.
    const run = "de857e3d-2e64-4203-82b4-6265d8cba156".slice(0, 26);
    expect(identifiers(`my account is ${run}`).map((f) => f.category)).toEqual(["iban"]);
    expect(identifiers("card 4629-1199-4725-9 please").map((f) => f.category)).toEqual(["card_number"]);
    expect(identifiers("IBAN DE89 3704 0044 0532 0130 00").map((f) => f.category)).toEqual(["iban"]);
  });

  it("secrets inside a UUID-shaped value are never excused", () => {
    // Heroku API keys are UUIDs: a cued one is still a secret.
    const key = randomUUID();
    expect(detectSensitive(`HEROKU_API_KEY=${key}`).some((f) => f.group === "secret")).toBe(true);
  });

  it("10,000 random tool-call ids: no identifier finding", () => {
    const flagged = Array.from({ length: 10_000 }, () => `tool-call-${randomUUID()}`).filter((id) => identifiers(id).length > 0);
    expect(flagged).toEqual([]);
  });
});
