/**
 * The filter's families against what they must not refuse and what a model makes of a secret:
 * - look-alikes of every secret and identifier family (test/fixtures/secret-look-alikes.json:
 *   talk about passwords without one, settings about secrets, codes that open nothing, hashes,
 *   ids, versions, numbers of every shape, in several languages) all stay storable, and the
 *   special-category look-alikes are refused only where the keyword filter is known to over-match;
 * - an LLM extractor that rephrases each secret of the second corpus in its own words ("User's pin
 *   detail is 5548", "5548 is the user's door code", "User noted API key = …") gets none of them
 *   through the write policy;
 * - the dev half of the third corpus (written by an outsider who never read the filter, 19
 *   languages; its held-out half is measured outside the repo): none of its sensitive sentences
 *   stored, none of its look-alikes refused. Before the families it answers were added, 53 of 189
 *   were stored and 5 of 67 look-alikes refused (docs/security.md).
 */
import { describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractStorableMemories, isStorable } from "../../src/extraction/index.js";
import { RecordingChatModel } from "../helpers/fake-chat-model.js";

const fixture = (name: string) => JSON.parse(readFileSync(join(process.cwd(), "test/fixtures", name), "utf8"));
const lookAlikes = fixture("secret-look-alikes.json") as { benign: string[]; special_category_benign: string[]; special_category_over_matches: string[] };
const corpus = fixture("secrets-corpus-2.json") as { sensitive: Array<{ id: string; category: string; text: string; secret?: string }> };

const corpus3 = fixture("secrets-corpus-3-dev.json") as { sensitive: Array<{ text: string; category: string; language: string }>; benign: Array<{ text: string; language: string }> };
/** Upper bounds reached on the dev half: a regression fails here. */
const CORPUS3_DEV_STORED_AT_MOST = 0;
const CORPUS3_DEV_LOOK_ALIKES_REFUSED_AT_MOST = 0;

describe("the third corpus's dev half (outsider-written)", () => {
  it(`stores at most ${CORPUS3_DEV_STORED_AT_MOST} of its ${corpus3.sensitive.length} sensitive sentences`, () => {
    expect(corpus3.sensitive.length).toBe(189);
    const stored = corpus3.sensitive.filter((e) => isStorable(e.text)).map((e) => `${e.category}/${e.language}: ${e.text}`);
    expect(stored.length <= CORPUS3_DEV_STORED_AT_MOST ? [] : stored).toEqual([]);
  });

  it(`refuses at most ${CORPUS3_DEV_LOOK_ALIKES_REFUSED_AT_MOST} of its ${corpus3.benign.length} look-alikes`, () => {
    expect(corpus3.benign.length).toBe(67);
    const refused = corpus3.benign.filter((e) => !isStorable(e.text)).map((e) => `${e.language}: ${e.text}`);
    expect(refused.length <= CORPUS3_DEV_LOOK_ALIKES_REFUSED_AT_MOST ? [] : refused).toEqual([]);
  });
});

describe("look-alikes of the secret and identifier families", () => {
  it(`all ${lookAlikes.benign.length} stay storable`, () => {
    expect(lookAlikes.benign.filter((t) => !isStorable(t))).toEqual([]);
  });

  it(`of ${lookAlikes.special_category_benign.length} special-category look-alikes, only the known over-matches are refused`, () => {
    expect(lookAlikes.special_category_benign.filter((t) => !isStorable(t))).toEqual(lookAlikes.special_category_over_matches);
  });
});

/** What a model calls each kind of value when it rewrites a user's sentence. */
const NOUNS: Record<string, string[]> = {
  password: ["password", "login password", "passcode"],
  pin: ["pin", "PIN code", "door code"],
  api_key: ["API key", "api token", "API secret"],
  private_key: ["private key", "wallet key"],
  seed_phrase: ["recovery phrase", "seed words"],
  env_secret: ["secret", "database password"],
  // The corpus gives the password of a connection string as its secret.
  connection_string: ["database password", "db credentials"],
  card_number: ["card number", "credit card"],
  bank_account: ["bank account number", "account number"],
  national_id: ["ID number", "national id number"],
  passport: ["passport number", "passport"],
};
const TEMPLATES: Array<(noun: string, value: string) => string> = [
  (n, v) => `User's ${n} detail is ${v}.`,
  (n, v) => `The user's ${n} for their account: ${v}`,
  (n, v) => `User noted ${n} = ${v}`,
  (n, v) => `${v} is the user's ${n}.`,
  (n, v) => `User shared ${n} information (${v}) to remember.`,
];

describe("a model that rephrases secrets", () => {
  const entries = corpus.sensitive.filter((e) => e.secret !== undefined && NOUNS[e.category] !== undefined);
  const rewrites = entries.flatMap((e) => NOUNS[e.category].flatMap((noun) => TEMPLATES.map((t) => ({ id: e.id, text: t(noun, e.secret!) }))));

  it(`gets none of ${rewrites.length} rewrites of ${entries.length} secrets through the write policy`, async () => {
    const model = new RecordingChatModel({
      defaultResponse: () => ({
        structured: { memories: rewrites.map((r) => ({ kind: "fact", text: r.text, confidence: 0.99, subject: null, action: "add", source_id: r.id })) },
      }),
    });
    const messages = entries.map((e) => new HumanMessage({ id: e.id, content: e.text }));
    const result = await extractStorableMemories(messages, { model });
    expect(model.calls).toHaveLength(1);
    expect(result.counts.candidates).toBe(rewrites.length);
    expect(result.accepted.map((m) => m.text)).toEqual([]);
  });

  it("the rewrites are refused on their own too, without the user's sentence to compare with", () => {
    expect(rewrites.filter((r) => isStorable(r.text)).map((r) => r.text)).toEqual([]);
  });
});
