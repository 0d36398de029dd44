import { LocalHashingEmbeddings } from "../../src/embeddings/hashing-embeddings.js";
import { porterStem } from "../../src/embeddings/porter-stemmer.js";
import { createEmbeddings, embedderIdOf } from "../../src/embeddings/create-embeddings.js";
import { dot, normalize, validateVector, MAX_EMBEDDING_DIMS } from "../../src/embeddings/vector.js";
import { stemmedTerms } from "../../src/embeddings/text-features.js";

describe("porterStem", () => {
  it.each([
    ["caresses", "caress"], ["ponies", "poni"], ["cats", "cat"], ["feed", "feed"], ["agreed", "agre"],
    ["plastered", "plaster"], ["motoring", "motor"], ["hopping", "hop"], ["filing", "file"], ["happy", "happi"],
    ["relational", "relat"], ["conditional", "condit"], ["generalization", "gener"], ["hopeful", "hope"],
    ["goodness", "good"], ["revival", "reviv"], ["adjustable", "adjust"], ["probate", "probat"], ["controll", "control"],
    ["running", "run"], ["runs", "run"], ["hiking", "hike"], ["hikes", "hike"],
  ])("%s → %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe("LocalHashingEmbeddings", () => {
  const e = new LocalHashingEmbeddings();

  it("is deterministic, unit length and of the configured dimension", async () => {
    const [a] = await e.embedDocuments(["Prefers metric units."]);
    const b = await e.embedQuery("Prefers metric units.");
    expect(a).toEqual(b);
    expect(a).toHaveLength(512);
    expect(dot(a, a)).toBeCloseTo(1, 10);
    expect(new LocalHashingEmbeddings({ dims: 64 }).embedSync("x y z")).toHaveLength(64);
    expect(e.embedderId).toBe("local-hash-v1/512");
  });

  it("scores shared words and word forms above unrelated text; near-duplicates above 0.9", () => {
    const base = e.embedSync("She loves hiking with her dog in the mountains");
    const forms = e.embedSync("hikes with dogs");
    const unrelated = e.embedSync("quarterly tax filing deadline");
    expect(dot(base, forms)).toBeGreaterThan(dot(base, unrelated) + 0.2);
    expect(dot(e.embedSync("Prefers metric units."), e.embedSync("prefers metric units!"))).toBeGreaterThan(0.9);
  });

  it("stop words alone give a zero vector (nothing to match on)", () => {
    const v = e.embedSync("the and of to");
    expect(v.every((x) => x === 0)).toBe(true);
    expect(stemmedTerms("The dogs were running")).toEqual(["dog", "run"]);
  });
});

describe("createEmbeddings", () => {
  it("local is the offline default; local:<dims> sets the dimension", async () => {
    expect(embedderIdOf(await createEmbeddings("local"))).toBe("local-hash-v1/512");
    expect(embedderIdOf(await createEmbeddings("local:256"))).toBe("local-hash-v1/256");
    await expect(createEmbeddings("local:3")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("openai:<model> needs a key; unknown providers are MODEL_UNAVAILABLE", async () => {
    await expect(createEmbeddings("openai:text-embedding-3-small", {})).rejects.toMatchObject({ code: "MODEL_UNAVAILABLE" });
    const openai = await createEmbeddings("openai:text-embedding-3-small", { OPENAI_API_KEY: "sk-test" });
    expect(embedderIdOf(openai)).toBe("openai:text-embedding-3-small");
    await expect(createEmbeddings("cohere:embed-english-v3.0", {})).rejects.toMatchObject({ code: "MODEL_UNAVAILABLE" });
  });
});

describe("vector checks", () => {
  it("refuses NaN, Infinity, non-numbers, empty and over-long vectors", () => {
    expect(() => validateVector([1, NaN], "v")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => validateVector([1, -Infinity], "v")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => validateVector([1, "2"], "v")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => validateVector([], "v")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => validateVector(new Array(MAX_EMBEDDING_DIMS + 1).fill(0.1), "v")).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => validateVector([1, 2], "v", 3)).toThrow(expect.objectContaining({ code: "EMBEDDING_DIMENSION_MISMATCH" }));
    expect(validateVector(new Float32Array([1, 2]), "v")).toEqual([1, 2]);
  });

  it("normalize makes unit vectors and leaves a zero vector alone", () => {
    expect(normalize([3, 4])).toEqual([0.6, 0.8]);
    expect(normalize([0, 0])).toEqual([0, 0]);
  });
});
