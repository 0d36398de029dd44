/**
 * The second secrets corpus (test/fixtures/secrets-corpus-2.json: 278 sensitive sentences in 14
 * languages, 60 benign look-alikes, written without reading the filter) through every door that
 * writes: the filter itself (`isStorable`), the store's typed door (`MemoryRepository.add`), the
 * BaseStore door (`LangGraphStore.put`), `manage_memory`, `controls.editMemory`,
 * `controls.import`, import-jsonl, the JSONL skill's `memory_write` (the class and the LangChain
 * tool), and the key entities of a rolling summary and of a past session (a summariser that lists
 * the sentence and its secret split into groups). Each door must store none, every `secret` value
 * must be gone after redaction, and the benign half must stay storable. Data doors run on both
 * engines. One figure line per engine for docs/security.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HumanMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../src/db/database.js";
import { isStorable } from "../../src/extraction/index.js";
import { importJsonlFile } from "../../src/extraction/write/index.js";
import { redactSecrets } from "../../src/sensitive/redaction.js";
import { memoryToolsFor, writeTargetsOf } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { redactSensitive, secretValuesIn } from "../../src/sessions/index.js";
import { sessionDocument } from "../../src/sessions/session-document.js";
import { createJsonlWriteTool, JsonlMemory } from "../../src/skill/index.js";
import { summarizeMessages } from "../../src/summarization/summarize-messages.js";
import type { Summarizer } from "../../src/summarization/summarizer.js";
import { MANAGE_MEMORY_TOOL_NAME } from "../../src/tools/index.js";
import { openTestDatabase, testEngines } from "../helpers/db.js";
import { report } from "./helpers/sizes.js";

interface Entry {
  id: string;
  category: string;
  language: string;
  text: string;
  secret?: string;
}
const corpus = JSON.parse(readFileSync(join(process.cwd(), "test/fixtures/secrets-corpus-2.json"), "utf8")) as { sensitive: Entry[]; benign: Array<{ id: string; text: string }> };
const SENSITIVE = corpus.sensitive;
const WITH_SECRET = SENSITIVE.filter((e) => e.secret !== undefined);

/** Pieces of a value the way entity lists split numbers: groups of 4 characters (letters and digits only). */
const groupsOf = (value: string) => value.replace(/[^\p{L}\p{N}]/gu, "").match(/.{1,4}/gu) ?? [];
const compact = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();
/**
 * The value in `text`: short ones (PINs) as a whole token, long ones anywhere or with their letters
 * and digits run together (a joined list of its groups).
 */
function holds(text: string, value: string): boolean {
  if (value.length < 8) return new RegExp(`(?<![\\p{L}\\p{N}-])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}-])`, "u").test(text);
  return text.includes(value) || compact(text).includes(compact(value));
}
/** Categories whose values are numbers an entity list would split into groups. */
const NUMBERS = new Set(["card_number", "bank_account", "national_id", "passport", "pin"]);
/** Special categories: their words stay in a job's payload until it completes (docs/security.md). */
const SPECIAL = new Set(["health", "criminal_record", "sexual_orientation", "religion", "political_opinion", "ethnicity", "trade_union", "biometric"]);

describe("the second corpus, pure doors", () => {
  it(`${SENSITIVE.length} sentences in ${new Set(SENSITIVE.map((e) => e.language)).size} languages; every one refused by isStorable, every benign one storable`, () => {
    expect(SENSITIVE.length).toBeGreaterThanOrEqual(150);
    const stored = SENSITIVE.filter((e) => isStorable(e.text)).map((e) => e.id);
    const benignRefused = corpus.benign.filter((b) => !isStorable(b.text)).map((b) => b.id);
    report("secrets corpus 2: isStorable", { sentences: SENSITIVE.length, stored: stored.length, benign: corpus.benign.length, benignRefused: benignRefused.length });
    // "Ich bin Sinto" too: "sinto" (also Portuguese "I feel") counts right after a copula.
    expect(stored).toEqual([]);
    expect(benignRefused).toEqual([]);
  });

  it(`each of the ${WITH_SECRET.length} secret values is gone after the job payloads' redaction and the past-session redaction`, () => {
    const inPayload = WITH_SECRET.filter((e) => !SPECIAL.has(e.category) && holds(redactSecrets(e.text), e.secret!)).map((e) => e.id);
    const inSession = WITH_SECRET.filter((e) => holds(redactSensitive(e.text).text, e.secret!)).map((e) => e.id);
    report("secrets corpus 2: redaction", { values: WITH_SECRET.length, leftInJobPayload: inPayload.length, leftInPastSession: inSession.length });
    expect(inPayload).toEqual([]);
    expect(inSession).toEqual([]);
  });

  it("rolling-summary and past-session entities: a summariser that lists each sentence and its secret in pieces leaves none of them", async () => {
    const leaky: Summarizer = {
      name: "leaky",
      summarize: async ({ messages }) => {
        const text = String(messages[messages.length - 1].content);
        const entry = SENSITIVE.find((e) => e.text === text)!;
        const pieces = !entry.secret ? [] : NUMBERS.has(entry.category) ? [`card ${groupsOf(entry.secret)[0]}`, ...groupsOf(entry.secret).slice(1)] : [entry.secret];
        return { text: "User shared some details.", entities: { numbers: pieces, decisions: [text] } };
      },
    };
    const inRolling: string[] = [];
    const inSession: string[] = [];
    for (const entry of SENSITIVE) {
      const summary = await summarizeMessages({ messages: [new HumanMessage({ id: `m-${entry.id}`, content: entry.text })], summarizer: leaky, maxSummaryTokens: 400 });
      const listed = Object.values(summary.entities).flat().join(" ");
      // Secret values must be gone from the rolling summary's lists (special-category words stay in graph state, like the prose).
      if (entry.secret && !SPECIAL.has(entry.category) && holds(listed, entry.secret)) inRolling.push(entry.id);
      // As foldSession does: the thread's own secret values are known when its session is written.
      const doc = sessionDocument(summary, { maxTextChars: 4000, knownSecrets: secretValuesIn([entry.text]) });
      const stored = `${doc.text}\n${doc.context ?? ""}`;
      if (entry.secret ? holds(stored, entry.secret) : stored.includes(entry.text)) inSession.push(entry.id);
    }
    report("secrets corpus 2: entities", { sentences: SENSITIVE.length, secretsInRollingSummaryEntities: inRolling.length, inPastSession: inSession.length });
    expect(inRolling).toEqual([]);
    expect(inSession).toEqual([]);
  });
});

describe.each(testEngines())("the second corpus through every data door on %s", (engine) => {
  let db: Database;
  let memory: LangGraphMemory;
  const dir = mkdtempSync(join(tmpdir(), "lgm-corpus2-"));
  const figures: Record<string, { tried: number; stored: number }> = {};
  const scope = (user: string) => ({ tenantId: "corpus2", userId: `${user}-${engine}` });

  beforeAll(async () => {
    db = await openTestDatabase(engine);
    memory = await createMemory({ db });
  });
  afterAll(async () => {
    await memory?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
    report(`secrets corpus 2 through every door (${engine})`, figures);
  });

  /** Every stored text of the tenant (memories, items, profiles, rules), for the value checks. */
  async function storedText(): Promise<string> {
    const parts: string[] = [];
    for (const table of ["memories", "store_items", "profiles", "procedural_rules"]) {
      const { rows } = await db.query<{ r: string }>(`SELECT t::text AS r FROM ${table} t WHERE t.tenant_id = 'corpus2'`);
      parts.push(...rows.map((r) => r.r));
    }
    return parts.join("\n");
  }
  async function expectNoValueStored(): Promise<void> {
    const stored = await storedText();
    expect(WITH_SECRET.filter((e) => holds(stored, e.secret!)).map((e) => e.id)).toEqual([]);
  }
  async function count(door: string, write: (entry: Entry, i: number) => Promise<boolean>): Promise<string[]> {
    const stored: string[] = [];
    for (const [i, entry] of SENSITIVE.entries()) {
      let ok = false;
      try {
        ok = await write(entry, i);
      } catch (err) {
        expect((err as { code?: string }).code).toBe("SENSITIVE_CONTENT");
      }
      if (ok) stored.push(entry.id);
    }
    figures[door] = { tried: SENSITIVE.length, stored: stored.length };
    return stored;
  }

  it("MemoryRepository.add (the typed door) stores none", async () => {
    const stored = await count("MemoryRepository.add", async (e) => Boolean(await memory.store.add(scope("store"), { kind: "fact", text: e.text })));
    expect(stored).toEqual([]);
    // Benign ones still go in.
    for (const b of corpus.benign) await memory.store.add(scope("store-benign"), { kind: "fact", text: b.text });
    expect(await memory.store.export(scope("store-benign"))).toHaveLength(corpus.benign.length);
    await expectNoValueStored();
  });

  it("LangGraphStore.put (the BaseStore door) stores none", async () => {
    const stored = await count("LangGraphStore.put", async (e, i) => {
      await memory.langgraphStore.put(["corpus2", engine], `k${i}`, { text: e.text });
      return (await memory.langgraphStore.get(["corpus2", engine], `k${i}`)) !== null;
    });
    expect(stored).toEqual([]);
    for (const [i, b] of corpus.benign.entries()) await memory.langgraphStore.put(["corpus2-benign", engine], `b${i}`, { text: b.text });
    expect(await memory.langgraphStore.search(["corpus2-benign", engine], { limit: 100 })).toHaveLength(corpus.benign.length);
    await expectNoValueStored();
  });

  it("manage_memory (create) stores none", async () => {
    const manage: StructuredToolInterface = memoryToolsFor(memory).find((t) => t.name === MANAGE_MEMORY_TOOL_NAME)!;
    const config = { configurable: { thread_id: `corpus2-${engine}`, tenant_id: "corpus2", user_id: `tool-${engine}` } };
    const stored = await count("manage_memory", async (e) => JSON.parse(String(await manage.invoke({ action: "create", content: e.text }, config))).status === "created");
    expect(stored).toEqual([]);
    await expectNoValueStored();
  });

  it("controls.editMemory stores none", async () => {
    const user = scope("edit");
    const seed = await memory.store.add(user, { kind: "fact", text: "Has a cat named Miso." });
    const stored = await count("controls.editMemory", async (e) => (await memory.controls.editMemory(user, seed.id, { text: e.text })).text === e.text);
    expect(stored).toEqual([]);
    await expectNoValueStored();
  });

  it("controls.import stores none", async () => {
    const doc = {
      format: "langgraph-memory/user-export",
      version: 1,
      exportedAt: new Date().toISOString(),
      tenantId: "other",
      userId: "other",
      memories: SENSITIVE.map((e, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, kind: "fact", text: e.text, createdAt: "2025-01-01T00:00:00Z" })),
      profile: null,
      rules: [],
      settings: null,
    };
    const result = await memory.controls.import(scope("import"), doc);
    figures["controls.import"] = { tried: SENSITIVE.length, stored: result.memories.imported };
    expect(result.memories.imported).toBeLessThanOrEqual(1); // the documented miss, if anything
    await expectNoValueStored();
  });

  it("import-jsonl stores none", async () => {
    // A file as the bash skill writes it: one JSON line per entry, no filter on the way in.
    const file = join(dir, `corpus2-${engine}.jsonl`);
    writeFileSync(file, SENSITIVE.map((e, i) => JSON.stringify({ ts: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), type: "note", content: e.text })).join("\n") + "\n");
    const result = await importJsonlFile(file, { store: memory.store, scope: scope("jsonl"), targets: writeTargetsOf(memory) });
    figures["import-jsonl"] = { tried: SENSITIVE.length, stored: result.imported };
    expect(result.imported).toBeLessThanOrEqual(1);
    await expectNoValueStored();
  });

  it("the JSONL skill's memory_write (class and LangChain tool) writes none", async () => {
    const file = join(dir, `skill-${engine}.jsonl`);
    const skill = new JsonlMemory({ file, onCorruptLines: () => undefined });
    const stored = await count("memory_write", async (e) => Boolean(await skill.write({ type: "note", content: e.text })));
    expect(stored).toEqual([]);
    const tool = createJsonlWriteTool(skill);
    const answers = await Promise.all(SENSITIVE.slice(0, 20).map(async (e) => JSON.parse(String(await tool.invoke({ content: e.text })))));
    expect(answers.filter((a) => a.ts !== undefined)).toEqual([]);
    let written = "";
    try {
      written = readFileSync(file, "utf8");
    } catch {
      // nothing written at all
    }
    expect(WITH_SECRET.filter((e) => holds(written, e.secret!)).map((e) => e.id)).toEqual([]);
  });
});
