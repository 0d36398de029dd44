/**
 * Forgetting a fact removes it everywhere, on every control path, on both engines (issue 17).
 * Deleting "User is vegetarian." by id used to leave "I'm vegetarian and my dog is called Rex" in
 * the user's past session (and rolling summary), which went on being injected.
 *
 * For each path a fresh user states the fact in a conversation long enough to be summarised (a
 * summariser model that quotes what the user said, in its prose and its entity lists), the worker
 * extracts it and indexes the session, the profile notes and a rule of the user's quote it, and
 * more turns that state it are queued (a submitted turn and a pending job on each engine). Then the
 * path forgets it, the worker drains what was queued, and:
 *
 * - every table of the schema is searched for the fact's word: memories (text, context, metadata),
 *   jobs and the inbox, profiles and their history, rules, past sessions, the checkpointer's
 *   references and every stored item (decoded) that is not a message of the transcript — the
 *   transcript is kept as it was said, until the thread is deleted;
 * - every checkpoint and pending write of the user's threads, read through the checkpointer, holds
 *   it in no memory channel (summary and its entities, memories, pastSessions, rules, profile);
 * - the next turn's built prompt (system part: memory block, past sessions, summary) has it
 *   nowhere — in a new thread and in the thread that said it.
 *
 * A superseded fact (supersede on write, a tool's update) keeps its superseded memory row (the
 * version chain, never retrieved, deleted with the current version); it is gone from everything else.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { AIMessage, BaseMessage, HumanMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import { quoteIdent } from "../../src/db/identifier.js";
import { memoryPrompt, memoryToolsFor, memoryWorker, withMemory } from "../../src/graph/index.js";
import { createMemory, type LangGraphMemory } from "../../src/memory.js";
import { createMemoryServer } from "../../src/server/index.js";
import { dropSchema, uniqueSchema } from "../helpers/db.js";
import { testEngines } from "../helpers/engines.js";
import { RecordingChatModel, type RecordedChatCall } from "../helpers/fake-chat-model.js";
import { report } from "./helpers/sizes.js";

const FACT = /vegetarian/i;
const CHANNELS = ["summary", "memories", "pastSessions", "rules", "profile"];
const TOKEN = "forget-everywhere-test-token-0123456789";

/**
 * A summariser that does what a model would: the previous summary plus what the user said, with
 * each user sentence also kept as a "decision" entity.
 */
function quotingSummarizer(): RecordingChatModel {
  return new RecordingChatModel({
    defaultResponse: (call: RecordedChatCall) => {
      const prompt = String(call.messages[call.messages.length - 1].content);
      const previous = /Current summary \(empty at the start\):\n([\s\S]*?)\n\nKey facts/.exec(prompt)?.[1].trim() ?? "";
      const transcript = /New messages to fold into the summary:\n([\s\S]*?)\n\nReturn the updated/.exec(prompt)?.[1] ?? "";
      const said = transcript.split("\n").filter((l) => l.startsWith("User: ")).map((l) => l.slice(6).trim());
      const text = [previous === "(none)" ? "" : previous, ...said.map((s) => `The user said: ${s}`)].filter(Boolean).join(" ");
      return { structured: { text, entities: { people: [], places: [], numbers: [], dates: [], decisions: said.filter((s) => s.length < 80), openTasks: [] }, closedTasks: [] } };
    },
  });
}

interface PathContext {
  memory: LangGraphMemory;
  user: { tenantId: string; userId: string };
  factId: string;
  /** Reopen the memory after a path ran in another process (embedded database: one process at a time). */
  reopen(run: () => Promise<void>): Promise<void>;
  cliArgs: string[];
  turn(thread: string, text: string): Promise<void>;
}

interface ForgetPath {
  name: string;
  /** The fact is replaced, not deleted: its superseded memory row stays (the version chain). */
  supersedes?: boolean;
  forget(ctx: PathContext): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const manageTool = (memory: LangGraphMemory) => memoryToolsFor(memory)[0] as unknown as { invoke: (input: any, config?: any) => Promise<unknown> };
const toolConfig = (u: { tenantId: string; userId: string }) => ({ configurable: { thread_id: `tool-thread-${u.userId}`, tenant_id: u.tenantId, user_id: u.userId } });

const PATHS: ForgetPath[] = [
  { name: "controls.deleteMemory", forget: async ({ memory, user, factId }) => void (await memory.controls.deleteMemory(user, factId)) },
  {
    name: "HTTP DELETE /api/memories/:id",
    forget: async ({ memory, user, factId }) => {
      const server = await createMemoryServer({ memory, tokens: { [TOKEN]: user } });
      try {
        const base = await server.listen({ port: 0 });
        const res = await fetch(`${base.replace(/\/$/, "")}/api/memories/${factId}`, { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status).toBe(200);
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "CLI memories delete",
    forget: async (ctx) =>
      ctx.reopen(async () => {
        const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
        try {
          expect(await main(["memories", "delete", ctx.factId, "--tenant", ctx.user.tenantId, "--user", ctx.user.userId, ...ctx.cliArgs])).toBe(0);
        } finally {
          log.mockRestore();
        }
      }),
  },
  {
    name: "chat /forget",
    forget: async (ctx) =>
      ctx.reopen(async () => {
        const child = spawn(process.execPath, ["--import", "tsx", "src/cli/run.ts", "chat", "--user", ctx.user.userId, "--tenant", ctx.user.tenantId, ...ctx.cliArgs], {
          cwd: process.cwd(),
          env: { ...process.env, MODEL: "", OPENAI_API_KEY: "" },
          stdio: ["pipe", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (out += c.toString()));
        child.stdin.end(`/forget ${ctx.factId}\n/exit\n`);
        const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
        expect({ code, deleted: /deleted 1 memory/.test(out) }).toEqual({ code: 0, deleted: true });
      }),
  },
  {
    name: "controls.editMemory (the old text)",
    forget: async ({ memory, user, factId }) => void (await memory.controls.editMemory(user, factId, { text: "User eats fish on Fridays." })),
  },
  { name: "supersede on write", supersedes: true, forget: async ({ turn }) => turn("E", "I'm vegan now.") },
  {
    name: "manage_memory delete (id)",
    forget: async ({ memory, user, factId }) => {
      const manage = manageTool(memory);
      expect(JSON.parse(String(await manage.invoke({ action: "delete", id: factId }, toolConfig(user)))).status).toBe("deleted");
    },
  },
  {
    name: "manage_memory delete (content: forget that …)",
    forget: async ({ memory, user }) => {
      const manage = manageTool(memory);
      expect(JSON.parse(String(await manage.invoke({ action: "delete", content: "User is vegetarian." }, toolConfig(user)))).status).toBe("deleted");
    },
  },
  {
    name: "manage_memory update",
    supersedes: true,
    forget: async ({ memory, user, factId }) => {
      const manage = manageTool(memory);
      expect(JSON.parse(String(await manage.invoke({ action: "update", id: factId, content: "User is vegan." }, toolConfig(user)))).status).toBe("updated");
    },
  },
];

describe.each(testEngines())("forgetting removes the fact everywhere on %s", (engine) => {
  const dir = mkdtempSync(join(tmpdir(), "lgm-forget-"));
  const schema = engine === "postgres" ? uniqueSchema("lgm_forget") : "langgraph_memory";
  const url = engine === "pglite" ? `pglite:${join(dir, "db")}` : process.env.DATABASE_URL!;
  const cliArgs = ["--database-url", url, ...(engine === "postgres" ? ["--schema", schema] : [])];
  const open = () => createMemory({ databaseUrl: url, schema, model: null });
  let memory: LangGraphMemory;
  const checked: Record<string, string[]> = {};
  let placesChecked: string[] = [];

  beforeAll(async () => {
    memory = await open();
  });
  afterAll(async () => {
    await memory?.close();
    if (engine === "postgres") await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
    report(`forget everywhere (${engine})`, { paths: Object.keys(checked).length, places: placesChecked.length, placesChecked, byPath: checked });
  });

  const prompts: Array<{ thread: string; system: string }> = [];
  const graphOf = (m: LangGraphMemory) =>
    withMemory({
      memory: m,
      debounceMs: 0,
      budgets: { recentMessages: 220 },
      summarization: { model: quotingSummarizer() },
      workerWarning: false,
      agent: async (state, config) => {
        const built = memoryPrompt(state, { system: "You are helpful." }) as BaseMessage[];
        prompts.push({ thread: String(config.configurable?.thread_id), system: built.filter((x) => x.getType() === "system").map((x) => String(x.content)).join("\n") });
        return { messages: [new AIMessage("Noted, thanks.")] };
      },
    }).compile({ checkpointer: m.checkpointer });

  /** Every table of the schema: the rows (as text) that hold the fact, with stored items decoded and transcript messages left out. */
  async function placesHolding(m: LangGraphMemory, u: { tenantId: string; userId: string }, options: { keepSuperseded: boolean }): Promise<Record<string, number>> {
    const db = m.db;
    const tables = (await db.query<{ t: string }>("SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY 1", [db.schema])).rows.map((r) => r.t);
    placesChecked = tables;
    const found: Record<string, number> = {};
    const serde = new JsonPlusSerializer();
    for (const table of tables) {
      if (table === "checkpoint_items") {
        const { rows } = await db.query<{ type: string; blob: Uint8Array }>("SELECT i.type, i.blob FROM checkpoint_items i JOIN threads t USING (thread_id) WHERE t.tenant_id = $1 AND t.user_id = $2", [u.tenantId, u.userId]);
        let n = 0;
        for (const r of rows) {
          const value = await serde.loadsTyped(r.type, r.blob);
          if (BaseMessage.isInstance(value)) continue; // the transcript, kept as said
          if (FACT.test(JSON.stringify(value))) n++;
        }
        if (n > 0) found[table] = n;
        continue;
      }
      // The user's rows (by user, or by the user's threads); tables of neither kind whole.
      const cols = (await db.query<{ a: string }>("SELECT a.attname AS a FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped", [db.schema, table])).rows.map((r) => r.a);
      const conditions = ["x::text ~* $1"];
      if (cols.includes("user_id")) conditions.push("x.tenant_id = $2 AND x.user_id = $3");
      else if (cols.includes("thread_id")) conditions.push("x.thread_id IN (SELECT thread_id FROM threads WHERE tenant_id = $2 AND user_id = $3)");
      if (options.keepSuperseded && table === "memories") conditions.push("x.superseded_by IS NULL");
      const params = conditions.length > 1 && !conditions[1].startsWith("x.superseded") ? [FACT.source, u.tenantId, u.userId] : [FACT.source];
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(table)} x WHERE ${conditions.join(" AND ")}`, params);
      if (rows[0].n > 0) found[table] = rows[0].n;
    }
    return found;
  }

  /** Memory channels of every checkpoint and pending write of the user's threads that hold the fact. */
  async function channelsHolding(m: LangGraphMemory, u: { tenantId: string; userId: string }): Promise<string[]> {
    const threads = (await m.db.query<{ thread_id: string }>("SELECT thread_id FROM threads WHERE tenant_id = $1 AND user_id = $2", [u.tenantId, u.userId])).rows.map((r) => r.thread_id);
    const hits: string[] = [];
    for (const thread of threads) {
      for await (const t of m.checkpointer.list({ configurable: { thread_id: thread, tenant_id: u.tenantId, user_id: u.userId } })) {
        for (const c of CHANNELS) if (FACT.test(JSON.stringify(t.checkpoint.channel_values[c] ?? null))) hits.push(`${thread}/${t.checkpoint.id}/${c}`);
        for (const [, channel, value] of t.pendingWrites ?? []) if (CHANNELS.includes(channel) && FACT.test(JSON.stringify(value))) hits.push(`${thread}/${t.checkpoint.id}/write:${channel}`);
      }
    }
    return hits;
  }

  let n = 0;
  for (const path of PATHS) {
    it(`${path.name}: gone from every table, every memory channel and the next prompt`, async () => {
      const user = { tenantId: "acme", userId: `u${++n}-${path.name.replace(/\W+/g, "-").slice(0, 20)}` };
      const config = (thread: string) => ({ configurable: { thread_id: `${user.userId}-${thread}`, tenant_id: user.tenantId, user_id: user.userId } });
      const turn = async (thread: string, text: string, drain = true) => {
        await graphOf(memory).invoke({ messages: [new HumanMessage(text)] }, config(thread));
        if (drain) await memoryWorker(memory).drain();
      };
      // The fact, in a conversation long enough to be summarised and indexed as a past session.
      await turn("A", "By the way, I'm vegetarian and my dog is called Rex.");
      for (let i = 0; i < 6; i++) await turn("A", `Let's plan the trip to Oslo, day ${i}: museums, the fjord boat and a long walk.`);
      await memory.controls.updateProfile(user, { notes: "Vegetarian. Likes long walks." });
      await memory.rules.propose(user, { text: "Suggest vegetarian dishes when food comes up.", source: "learned", origin: { kind: "extraction" } });
      const fact = (await memory.store.list(user)).find((m) => m.text === "User is vegetarian.");
      expect(fact).toBeDefined();
      // More of it queued, not extracted yet: a turn through the graph, plus a submitted turn and a pending job.
      await turn("C", "Remember that I'm vegetarian, please.", false);
      const payload = (id: string) => ({ v: 1, threadId: `${user.userId}-Q`, messages: [{ id, role: "human", text: "As I said, I'm vegetarian. I also like jazz." }] });
      await memory.jobs.submit({ queue: "memory-extraction", scope: user, groupKey: `${user.userId}-Q`, idempotencyKey: "q1", payload: payload("q1"), debounceMs: 3_600_000 });
      await memory.jobs.enqueue({ queue: "memory-extraction", scope: user, groupKey: `${user.userId}-R`, idempotencyKey: "r1", payload: payload("r1"), debounceMs: 3_600_000 });

      // Before: the fact is stored and reaches the prompt (so the checks below can fail).
      const before = await placesHolding(memory, user, { keepSuperseded: false });
      expect(Object.keys(before)).toEqual(expect.arrayContaining(["memories", "profiles", "profile_history", "procedural_rules"]));
      expect(Object.keys(before).some((t) => t === "memory_jobs" || t === "memory_jobs_inbox")).toBe(true);
      expect((await channelsHolding(memory, user)).length).toBeGreaterThan(0);
      await turn("D", "What should I cook tonight, given my diet? Any vegetarian ideas?", false);
      expect(prompts.at(-1)!.system).toMatch(FACT);

      const ctx: PathContext = {
        memory,
        user,
        factId: fact!.id,
        cliArgs,
        turn: (thread, text) => turn(thread, text),
        reopen: async (run) => {
          await memory.close();
          try {
            await run();
          } finally {
            memory = await open();
            ctx.memory = memory;
          }
        },
      };
      await path.forget(ctx);
      // What was queued before runs now: it must not bring the fact back.
      await memoryWorker(memory).drain();

      const after = await placesHolding(memory, user, { keepSuperseded: path.supersedes === true });
      const channels = await channelsHolding(memory, user);
      await turn("D", "What should I cook tonight, given my diet? Any vegetarian ideas?", false);
      const newThread = prompts.at(-1)!.system;
      await turn("A", "And what about dinner on the last day, any vegetarian options?", false);
      const sameThread = prompts.at(-1)!.system;
      checked[path.name] = Object.keys(before);
      expect({ tables: after, channels, promptNewThread: FACT.test(newThread), promptSameThread: FACT.test(sameThread) }).toEqual({
        tables: {},
        channels: [],
        promptNewThread: false,
        promptSameThread: false,
      });
      if (path.supersedes) expect((await memory.store.export(user)).filter((m) => FACT.test(m.text)).every((m) => m.supersededBy !== null)).toBe(true);
    }, 180_000);
  }
});
