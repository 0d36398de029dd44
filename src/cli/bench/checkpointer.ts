import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import pg from "pg";
import { createPgClient, createPgPool } from "../../db/pg-clients.js";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { MemorySaver, uuid6, type BaseCheckpointSaver, type Checkpoint } from "@langchain/langgraph-checkpoint";
import { PostgresCheckpointer } from "../../checkpointer/index.js";
import { connectDatabase } from "../../db/open.js";
import { migrate } from "../../db/migrate.js";
import type { PgDatabase } from "../../db/pg-database.js";
import { quoteIdent } from "../../db/identifier.js";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Benchmark } from "./benchmark.js";
import { ratio, round, summarize, table, timeMs, writeJson, type LatencySummary } from "./stats.js";
import { seededRandom } from "./seeded-random.js";
import { PING_SQL } from "./bench-queries.js";
import {
  CHECKPOINT_SQL,
  SYNCHRONOUS_COMMIT_OFF_SQL,
  TABLE_BYTES_SQL,
  createCommitFloorTableSql,
  dropCommitFloorTableSql,
  dropSchemaSql,
  insertCommitFloorRowSql,
} from "./checkpointer-queries.js";

const USAGE = `usage: langgraph-memory bench checkpointer [--turns N] [--long-turns N] [--only putWrites] [--json FILE] [--database-url URL]

Ours (PostgresCheckpointer) and the official PostgresSaver on the same server Postgres in the same
run, interleaved, each in a fresh schema dropped afterwards:
  put / putWrites / getTuple (latest) / list (limit 10) on a chat thread, p50/p95;
  a StateGraph with MessagesAnnotation invoked --turns times on one thread (p50/p95 per invoke, and
  MemorySaver as the in-memory reference), then the bytes of each saver's tables;
  getTuple p50 at turn 20 (both) and, for growth, ours on a turn-20 thread and a turn --long-turns
  thread read alternately; SELECT 1 as the floor.
  Cold reads, as a fresh process makes them (ours with readCache off): getTuple at turns 20, 200
  and --long-turns for both savers interleaved (the official saver's threads are built in two puts:
  its latest checkpoint holds the whole channel either way, and 4,000 puts would write gigabytes),
  and list(10).
  Before the micro operations the server runs CHECKPOINT (when permitted), so the write-back of
  the invoke phase does not land in the commits being timed; a one-row INSERT + commit is timed
  alongside the puts as the floor under any durable put.
  --turns N         invokes of the chat graph (default 200)
  --long-turns N    length of the long thread for getTuple growth (default 2000)
  --iterations N    samples per micro operation (default 200)
  --only putWrites  only the putWrites micro operation (the same 40-message thread built by puts,
                    the same interleaved calls) and the SELECT 1 floor; the JSON then holds the
                    putWrites and select1 figures and ratios.putWrites_p50
  --database-url U  server Postgres (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
  --json FILE       write { ours, baseline, ratios, … } as JSON`;

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";

type Saver = BaseCheckpointSaver;
interface Contender {
  name: "ours" | "baseline";
  saver: Saver;
  schema: string;
  tables: string[];
  select1: () => Promise<unknown>;
}

const WORDS = (
  "the order delivery account invoice refund customer support issue ticket payment card shipping address " +
  "password login error message update version install server network timeout request response database " +
  "report weekly monthly meeting schedule calendar project deadline budget estimate review draft document " +
  "please could would should check confirm change cancel upgrade downgrade renew export import configure " +
  "today tomorrow yesterday morning evening week month quarter year hour minute again still already soon " +
  "because however although therefore meanwhile otherwise instead besides finally usually probably maybe " +
  "team manager engineer analyst designer client partner vendor contract policy plan feature bug release " +
  "slow fast broken missing duplicate wrong correct pending approved rejected shipped delayed returned " +
  "london paris berlin tokyo toronto sydney madrid oslo lisbon denver nairobi kyoto quito tallinn hobart"
).split(" ");

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(rand() < 0.08 ? String(Math.floor(rand() * 100000)) : WORDS[Math.floor(rand() * WORDS.length)]);
  const text = out.join(" ");
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/**
 * Deterministic chat messages of realistic length and variety (a ~25-word question, a ~110-word
 * answer, about 0.4 and 1 KB serialized): varied text, because repetitive text would let TOAST
 * compression hide the official saver's repeated copies. With these, the official saver's 200
 * invokes take about the 20.8 MB measured for it before.
 */
function message(i: number): BaseMessage {
  const rand = seededRandom(i + 1);
  return i % 2 === 0
    ? new HumanMessage({ id: `h${i}`, content: `${sentence(rand, 14)} ${sentence(rand, 10)}?` })
    : new AIMessage({ id: `a${i}`, content: [24, 20, 22, 18, 26].map((n) => sentence(rand, n)).join(" ") });
}

/** The next checkpoint of a chat thread holding `messages`, as LangGraph would build it. */
function chatCheckpoint(saver: Saver, messages: BaseMessage[], step: number, previous?: Checkpoint): Checkpoint {
  const version = saver.getNextVersion(previous?.channel_versions.messages as number | undefined);
  return {
    v: 4,
    id: uuid6(step),
    ts: new Date().toISOString(),
    channel_values: { messages },
    channel_versions: { messages: version },
    versions_seen: { agent: { messages: previous?.channel_versions.messages ?? version } },
  };
}

/** A thread built by direct puts: each step appends one message. Returns the last config. */
async function buildThread(saver: Saver, threadId: string, messages: BaseMessage[], steps: number, from = 0, start?: { config: RunnableConfig; checkpoint: Checkpoint }) {
  let config: RunnableConfig = start?.config ?? { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  let previous = start?.checkpoint;
  for (let i = from; i < from + steps; i += 1) {
    messages.push(message(i));
    const checkpoint = chatCheckpoint(saver, messages.slice(), i, previous);
    config = await saver.put(config, checkpoint, { source: "loop", step: i, parents: {} }, { messages: checkpoint.channel_versions.messages });
    previous = checkpoint;
  }
  return { config, checkpoint: previous! };
}

/** A thread of `n` messages in two puts (the last checkpoint has a parent and a new messages version). */
async function buildInTwoPuts(saver: Saver, threadId: string, n: number): Promise<void> {
  const messages = Array.from({ length: n - 1 }, (_, i) => message(i));
  const first = chatCheckpoint(saver, messages, 0);
  const config = await saver.put({ configurable: { thread_id: threadId, checkpoint_ns: "" } }, first, { source: "loop", step: 0, parents: {} }, { messages: first.channel_versions.messages });
  const second = chatCheckpoint(saver, [...messages, message(n - 1)], 1, first);
  await saver.put(config, second, { source: "loop", step: 1, parents: {} }, { messages: second.channel_versions.messages });
}

/** Run `fn` for each contender in alternating order, `n` times; samples per contender. */
async function interleaved<T extends { name: string }>(contenders: T[], n: number, fn: (c: T, i: number) => Promise<unknown>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < n; i += 1) {
    const order = i % 2 === 0 ? contenders : [...contenders].reverse();
    for (const c of order) out[c.name].push(await timeMs(() => fn(c, i)));
  }
  return out;
}

async function bytesByTable(client: pg.Client, schema: string, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await tableBytes(client, schema, [t]);
  return out;
}

async function tableBytes(client: pg.Client, schema: string, tables: string[]): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(TABLE_BYTES_SQL, [schema, tables]);
  return Number(rows[0].bytes);
}

/** Statements one put sends to the server, counted at the driver. */
async function statementsPerPut(saver: Saver, threadId: string): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return original.apply(this, args);
  };
  try {
    const messages: BaseMessage[] = [];
    await buildThread(saver, threadId, messages, 1);
    count = 0;
    await buildThread(saver, threadId, messages, 1, 1);
    return count;
  } finally {
    proto.query = original;
  }
}

function chatGraph(checkpointer: BaseCheckpointSaver) {
  let n = 0;
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async () => ({ messages: [message(2 * n++ + 1)] }))
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile({ checkpointer });
}

export const benchmark: Benchmark = {
  summary: "PostgresCheckpointer vs the official PostgresSaver (latency, storage, growth)",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        turns: { type: "string", default: "200" },
        "long-turns": { type: "string", default: "2000" },
        iterations: { type: "string", default: "200" },
        json: { type: "string" },
        "database-url": { type: "string" },
        "synchronous-commit": { type: "string", default: "on" },
        only: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const turns = positiveInt(values.turns!, "--turns");
    const longTurns = positiveInt(values["long-turns"]!, "--long-turns");
    const iterations = positiveInt(values.iterations!, "--iterations");
    const url = values["database-url"] ?? process.env.DATABASE_URL ?? DEFAULT_URL;
    const syncCommit = values["synchronous-commit"];
    if (syncCommit !== "on" && syncCommit !== "off") {
      console.error(`--synchronous-commit must be on or off, got ${syncCommit}`);
      return 2;
    }
    if (values.only !== undefined && values.only !== "putWrites") {
      console.error(`--only takes putWrites, got ${values.only}`);
      return 2;
    }
    if (!/^postgres(ql)?:\/\//.test(url)) {
      console.error(`bench checkpointer compares on server Postgres; ${url} is not a postgres:// URL`);
      return 2;
    }

    let PostgresSaver: typeof import("@langchain/langgraph-checkpoint-postgres").PostgresSaver;
    try {
      ({ PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres"));
    } catch {
      console.error("bench checkpointer needs the official saver to compare with: npm install --save-dev @langchain/langgraph-checkpoint-postgres");
      return 2;
    }

    const tag = `${process.pid}_${randomBytes(3).toString("hex")}`;
    const oursSchema = `lgm_bench_ours_${tag}`;
    const baseSchema = `lgm_bench_official_${tag}`;
    const admin = createPgClient({ connectionString: url });
    await admin.connect();
    // Both savers' connections get the same session settings: with --synchronous-commit off,
    // commits return before the WAL is flushed, which takes the disk out of the comparison.
    const setSession = (pool: pg.Pool) => {
      if (syncCommit === "off") pool.on("connect", (client) => void client.query(SYNCHRONOUS_COMMIT_OFF_SQL).catch(() => undefined));
    };
    const db = await connectDatabase(url, { schema: oursSchema });
    setSession((db as PgDatabase).pool);
    await migrate(db);
    await db.refreshCapabilities();
    const ours = PostgresCheckpointer.fromDatabase(db);
    const basePool = createPgPool({ connectionString: url });
    setSession(basePool);
    const baseline = new PostgresSaver(basePool, undefined, { schema: baseSchema });
    try {
      await baseline.setup();
      const contenders: Contender[] = [
        { name: "ours", saver: ours, schema: oursSchema, tables: ["threads", "checkpoints", "checkpoint_items", "checkpoint_writes"], select1: () => db.query(PING_SQL) },
        { name: "baseline", saver: baseline as unknown as Saver, schema: baseSchema, tables: ["checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations"], select1: () => basePool.query(PING_SQL) },
      ];
      const started = Date.now();
      const loadStart = loadavg().map((x) => round(x, 2));
      const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${s}`);

      // Floor.
      const floor = await interleaved(contenders, iterations, (c) => c.select1());

      if (values.only === "putWrites") {
        await settle(admin);
        const onlyPutWrites = await measurePutWrites(contenders, iterations);
        const result = {
          ours: { ...flat("putWrites", summarize(onlyPutWrites.ours)), ...flat("select1", summarize(floor.ours)) },
          baseline: { ...flat("putWrites", summarize(onlyPutWrites.baseline)), ...flat("select1", summarize(floor.baseline)) },
          ratios: { putWrites_p50: ratio(summarize(onlyPutWrites.baseline).p50_ms, summarize(onlyPutWrites.ours).p50_ms) },
          config: {
            only: "putWrites", iterations, synchronous_commit: syncCommit, engine: "postgres", server_version: db.capabilities.serverVersion, node: process.version,
            load_average_start: loadStart, load_average_end: loadavg().map((x) => round(x, 2)),
          },
        };
        console.log(
          table([`putWrites (server Postgres, synchronous_commit=${syncCommit})`, "ours", "official", "official/ours"], [
            [`${PING_SQL} p50 ms (floor)`, result.ours.select1_p50_ms, result.baseline.select1_p50_ms, ratio(result.baseline.select1_p50_ms, result.ours.select1_p50_ms)],
            ["putWrites p50 / p95 ms", `${result.ours.putWrites_p50_ms} / ${result.ours.putWrites_p95_ms}`, `${result.baseline.putWrites_p50_ms} / ${result.baseline.putWrites_p95_ms}`, result.ratios.putWrites_p50],
          ]),
        );
        console.log(`target: putWrites official/ours ≥ 1.5 (${result.ratios.putWrites_p50})`);
        if (values.json) {
          writeJson(values.json, result);
          console.log(`wrote ${values.json}`);
        }
        return 0;
      }

      // A chat graph invoked `turns` times on one thread; storage is measured right after, when
      // the schemas hold nothing else.
      log(`${turns} invokes of a MessagesAnnotation graph per saver`);
      const memory = new MemorySaver();
      const graphs = [
        { name: "ours", graph: chatGraph(ours) },
        { name: "baseline", graph: chatGraph(baseline as unknown as Saver) },
        { name: "memory", graph: chatGraph(memory) },
      ];
      const invoke = await interleaved(graphs, turns, (g, i) => g.graph.invoke({ messages: [message(2 * i)] }, { configurable: { thread_id: "chat" } }));
      const storage = { ours: await tableBytes(admin, oursSchema, contenders[0].tables), baseline: await tableBytes(admin, baseSchema, contenders[1].tables) };
      const storageByTable = {
        ours: await bytesByTable(admin, oursSchema, contenders[0].tables),
        baseline: await bytesByTable(admin, baseSchema, contenders[1].tables),
      };
      const finalLength = (await ours.getTuple({ configurable: { thread_id: "chat" } }))?.checkpoint.channel_values.messages as unknown[];
      const baseLength = (await baseline.getTuple({ configurable: { thread_id: "chat" } }))?.checkpoint.channel_values.messages as unknown[];
      if (finalLength?.length !== 2 * turns || baseLength?.length !== 2 * turns) throw new Error(`expected ${2 * turns} messages in both threads`);

      // Micro operations on a chat thread that starts at 20 turns (40 messages) and grows by one
      // message per put, as a graph step would. First let the server write out what the invoke
      // phase left dirty (the official saver's ~16 MB): otherwise that write-back competes with
      // the commits timed next and adds the same milliseconds to both savers' puts, which pulls
      // every ratio towards 1 whichever saver is faster.
      const settled = await settle(admin);
      log(`micro operations${settled ? " (after CHECKPOINT)" : ""}`);
      const threads = new Map<string, { messages: BaseMessage[]; config: RunnableConfig; checkpoint: Checkpoint; step: number }>();
      for (const c of contenders) {
        const messages: BaseMessage[] = [];
        const built = await buildThread(c.saver, "micro", messages, 40);
        threads.set(c.name, { messages, ...built, step: 40 });
      }
      // Timed alongside the puts: a one-row INSERT and its commit, the floor under any durable put
      // (with synchronous_commit=on both savers wait for the same WAL flush).
      await admin.query(createCommitFloorTableSql(quoteIdent(oursSchema)));
      if (syncCommit === "off") await admin.query(SYNCHRONOUS_COMMIT_OFF_SQL);
      const commitFloor = { name: "commit", run: () => admin.query(insertCommitFloorRowSql(quoteIdent(oursSchema))) };
      const put = await interleaved([...contenders, commitFloor], iterations, async (c) => {
        if ("run" in c) return c.run();
        const t = threads.get(c.name)!;
        const next = await buildThread(c.saver, "micro", t.messages, 1, t.step, t);
        Object.assign(t, next, { step: t.step + 1 });
      });
      await admin.query(dropCommitFloorTableSql(quoteIdent(oursSchema)));
      const getTuple = await interleaved(contenders, iterations, (c) => c.saver.getTuple({ configurable: { thread_id: "micro", checkpoint_ns: "" } }));
      const list10 = await interleaved(contenders, Math.max(20, Math.floor(iterations / 2)), async (c) => {
        let n = 0;
        for await (const _ of c.saver.list({ configurable: { thread_id: "micro", checkpoint_ns: "" } }, { limit: 10 })) n += 1;
        if (n !== 10) throw new Error(`list returned ${n} checkpoints`);
      });
      // Writes last: they pile up on the latest checkpoint, which getTuple and list would return.
      const putWrites = await writeTasks(contenders, threads, iterations);
      const statements = { ours: await statementsPerPut(ours, "statements"), baseline: await statementsPerPut(baseline as unknown as Saver, "statements") };

      // getTuple at turn 20 and at turn `longTurns` (two messages per turn).
      log(`getTuple growth: a thread of ${longTurns} turns (ours)`);
      const growthSamples = Math.max(50, Math.floor(iterations / 2));
      const latest = (thread: string) => ({ configurable: { thread_id: thread, checkpoint_ns: "" } });
      const oursMessages: BaseMessage[] = [];
      const baseMessages: BaseMessage[] = [];
      let long = await buildThread(ours, "long", oursMessages, 40);
      await buildThread(baseline as unknown as Saver, "long", baseMessages, 40);
      const at20 = await interleaved(contenders, growthSamples, (c) => c.saver.getTuple(latest("long")));
      // Growth is measured side by side: a thread that stays at turn 20 and the thread grown to
      // turn --long-turns, read alternately, so a change in the machine's load between two phases
      // does not show up as growth.
      await buildThread(ours, "short", [], 40);
      long = await buildThread(ours, "long", oursMessages, 2 * longTurns - 40, 40, long);
      const growth = await interleaved([{ name: "short" }, { name: "long" }], growthSamples, (t) => ours.getTuple(latest(t.name)));
      const cold = PostgresCheckpointer.fromDatabase(db, { readCache: false });
      const growthCold = await interleaved([{ name: "short" }, { name: "long" }], Math.min(growthSamples, 30), (t) => cold.getTuple(latest(t.name)));
      const [at20Side, atLong, at20Cold, atLongCold] = [growth.short, growth.long, growthCold.short, growthCold.long];
      const longStorage = await tableBytes(admin, oursSchema, contenders[0].tables);

      // Cold reads, as a fresh process reads (ours without its read cache), at turns 20, 200 and
      // --long-turns, against the official saver at the same turns, all interleaved. Ours reads
      // threads built put by put (its items spread over the thread's history); the official
      // saver's latest checkpoint holds the whole messages channel as one blob whatever came
      // before, so its threads are built with two puts (its storage grows with the square of the
      // thread: 4,000 puts would write gigabytes) — its read is the same as after 4,000 puts.
      const coldTurns = [...new Set([20, 200, longTurns])].filter((t) => t <= longTurns).sort((a, b) => a - b);
      log(`cold getTuple at turns ${coldTurns.join(", ")} (ours without read cache, official)`);
      const coldThread = (t: number) => (t === 20 ? "short" : t === longTurns ? "long" : `turn${t}`);
      for (const t of coldTurns) {
        if (t !== 20 && t !== longTurns) await buildThread(ours, coldThread(t), [], 2 * t);
        await buildInTwoPuts(baseline as unknown as Saver, `cold${t}`, 2 * t);
      }
      const coldContenders = coldTurns.flatMap((t) => [
        { name: `ours${t}`, read: () => cold.getTuple(latest(coldThread(t))) },
        { name: `baseline${t}`, read: () => baseline.getTuple(latest(`cold${t}`)) },
      ]);
      for (const c of coldContenders) {
        const tuple = await c.read();
        const n = (tuple?.checkpoint.channel_values.messages as unknown[] | undefined)?.length;
        const turn = Number(c.name.replace(/\D+/g, ""));
        if (n !== 2 * turn) throw new Error(`${c.name}: expected ${2 * turn} messages, read ${n}`);
      }
      const coldReads = await interleaved(coldContenders, Math.min(growthSamples, 20), (c) => c.read());
      const coldP50 = (name: string) => summarize(coldReads[name]).p50_ms;
      // list(10) from a fresh process on the micro thread (ten checkpoints of 40–240 messages).
      const list10Cold = await interleaved(
        [{ name: "ours", saver: cold as Saver }, { name: "baseline", saver: baseline as unknown as Saver }],
        Math.max(20, Math.floor(iterations / 4)),
        async (c) => {
          let n = 0;
          for await (const _ of c.saver.list({ configurable: { thread_id: "micro", checkpoint_ns: "" } }, { limit: 10 })) n += 1;
          if (n !== 10) throw new Error(`list returned ${n} checkpoints`);
        },
      );

      const o = (s: Record<string, number[]>, k: string) => summarize(s[k]);
      const oursFigures: Record<string, number> = {
        ...flat("put", o(put, "ours")),
        ...flat("putWrites", o(putWrites, "ours")),
        ...flat("getTuple", o(getTuple, "ours")),
        ...flat("list10", o(list10, "ours")),
        ...flat("invoke", o(invoke, "ours")),
        ...flat("select1", o(floor, "ours")),
        storage_bytes: storage.ours,
        statements_per_put: statements.ours,
        getTuple_p50_turn20_ms: summarize(at20.ours).p50_ms,
        getTuple_p50_turn20_beside_long_ms: summarize(at20Side).p50_ms,
        [`getTuple_p50_turn${longTurns}_ms`]: summarize(atLong).p50_ms,
        getTuple_p50_turn20_cold_ms: summarize(at20Cold).p50_ms,
        [`getTuple_p50_turn${longTurns}_cold_ms`]: summarize(atLongCold).p50_ms,
        [`storage_bytes_turn${longTurns}_thread_included`]: longStorage,
        ...Object.fromEntries(coldTurns.map((t) => [`getTuple_cold_p50_turn${t}_ms`, coldP50(`ours${t}`)])),
        ...flat("list10_cold", summarize(list10Cold.ours)),
      };
      const baselineFigures: Record<string, number> = {
        ...flat("put", o(put, "baseline")),
        ...flat("putWrites", o(putWrites, "baseline")),
        ...flat("getTuple", o(getTuple, "baseline")),
        ...flat("list10", o(list10, "baseline")),
        ...flat("invoke", o(invoke, "baseline")),
        ...flat("select1", o(floor, "baseline")),
        storage_bytes: storage.baseline,
        statements_per_put: statements.baseline,
        getTuple_p50_turn20_ms: summarize(at20.baseline).p50_ms,
        ...Object.fromEntries(coldTurns.map((t) => [`getTuple_cold_p50_turn${t}_ms`, coldP50(`baseline${t}`)])),
        ...flat("list10_cold", summarize(list10Cold.baseline)),
      };
      const result = {
        ours: oursFigures,
        baseline: baselineFigures,
        memory: { ...flat("invoke", o(invoke, "memory")) },
        commit_floor: flat("insert_commit", o(put, "commit")),
        storage_by_table: storageByTable,
        ratios: {
          storage: ratio(storage.baseline, storage.ours),
          getTuple_p50: ratio(summarize(getTuple.baseline).p50_ms, summarize(getTuple.ours).p50_ms),
          put_p50: ratio(summarize(put.baseline).p50_ms, summarize(put.ours).p50_ms),
          invoke_p50: ratio(summarize(invoke.baseline).p50_ms, summarize(invoke.ours).p50_ms),
          getTuple_growth: ratio(summarize(atLong).p50_ms, summarize(at20Side).p50_ms),
          getTuple_growth_cold: ratio(summarize(atLongCold).p50_ms, summarize(at20Cold).p50_ms),
          putWrites_p50: ratio(summarize(putWrites.baseline).p50_ms, summarize(putWrites.ours).p50_ms),
          list10_p50: ratio(summarize(list10.baseline).p50_ms, summarize(list10.ours).p50_ms),
          // Ours at the last turn ÷ ours at turn 20 (target ≤ 3), and ours ÷ official (target ≤ 0.5).
          getTuple_cold_growth: ratio(coldP50(`ours${longTurns}`), coldP50("ours20")),
          [`getTuple_cold_vs_baseline_turn${longTurns}`]: ratio(coldP50(`ours${longTurns}`), coldP50(`baseline${longTurns}`)),
          ...Object.fromEntries(coldTurns.filter((t) => t !== longTurns).map((t) => [`getTuple_cold_vs_baseline_turn${t}`, ratio(coldP50(`ours${t}`), coldP50(`baseline${t}`))])),
          baseline_getTuple_cold_growth: ratio(coldP50(`baseline${longTurns}`), coldP50("baseline20")),
          list10_cold_p50: ratio(summarize(list10Cold.baseline).p50_ms, summarize(list10Cold.ours).p50_ms),
        },
        config: {
          turns, long_turns: longTurns, iterations, synchronous_commit: syncCommit, checkpoint_before_micro: settled,
          engine: "postgres", server_version: db.capabilities.serverVersion, node: process.version, load_average_start: loadStart, load_average_end: loadavg().map((x) => round(x, 2)),
        },
      };

      const row = (label: string, a: number | string, b: number | string, r: number | string) => [label, a, b, r];
      console.log("");
      console.log(
        table([`checkpointer (server Postgres, synchronous_commit=${syncCommit})`, "ours", "official", "official/ours"], [
          row(`${PING_SQL} p50 ms (floor)`, result.ours.select1_p50_ms, result.baseline.select1_p50_ms, ratio(result.baseline.select1_p50_ms, result.ours.select1_p50_ms)),
          row("put p50 / p95 ms", `${result.ours.put_p50_ms} / ${result.ours.put_p95_ms}`, `${result.baseline.put_p50_ms} / ${result.baseline.put_p95_ms}`, result.ratios.put_p50),
          row("  one-row INSERT + commit p50 ms (floor)", summarize(put.commit).p50_ms, "", ""),
          row("statements per put", statements.ours, statements.baseline, ratio(statements.baseline, statements.ours)),
          row("putWrites p50 / p95 ms", `${result.ours.putWrites_p50_ms} / ${result.ours.putWrites_p95_ms}`, `${result.baseline.putWrites_p50_ms} / ${result.baseline.putWrites_p95_ms}`, result.ratios.putWrites_p50),
          row("getTuple latest p50 / p95 ms", `${result.ours.getTuple_p50_ms} / ${result.ours.getTuple_p95_ms}`, `${result.baseline.getTuple_p50_ms} / ${result.baseline.getTuple_p95_ms}`, result.ratios.getTuple_p50),
          row("list(10) p50 / p95 ms", `${result.ours.list10_p50_ms} / ${result.ours.list10_p95_ms}`, `${result.baseline.list10_p50_ms} / ${result.baseline.list10_p95_ms}`, result.ratios.list10_p50),
          row(`invoke p50 / p95 ms (${turns} turns)`, `${result.ours.invoke_p50_ms} / ${result.ours.invoke_p95_ms}`, `${result.baseline.invoke_p50_ms} / ${result.baseline.invoke_p95_ms}`, result.ratios.invoke_p50),
          row(`  in-memory MemorySaver p50 ms`, result.memory.invoke_p50_ms, "", ""),
          row(`storage after ${turns} invokes`, mb(storage.ours), mb(storage.baseline), result.ratios.storage),
          row("getTuple p50 ms at turn 20", result.ours.getTuple_p50_turn20_ms, result.baseline.getTuple_p50_turn20_ms, ratio(result.baseline.getTuple_p50_turn20_ms, result.ours.getTuple_p50_turn20_ms)),
          row(`getTuple p50 ms, turn 20 beside turn ${longTurns}`, `${summarize(at20Side).p50_ms} → ${summarize(atLong).p50_ms}`, "n/a", ""),
          row(`  growth turn ${longTurns} / turn 20`, result.ratios.getTuple_growth, "", ""),
          row("  same, no read cache (cold)", `${result.ours.getTuple_p50_turn20_cold_ms} → ${summarize(atLongCold).p50_ms}`, "", result.ratios.getTuple_growth_cold),
          ...coldTurns.map((t) => row(`cold getTuple p50 ms at turn ${t}`, coldP50(`ours${t}`), coldP50(`baseline${t}`), ratio(coldP50(`baseline${t}`), coldP50(`ours${t}`)))),
          row(`  cold growth turn ${longTurns} / turn 20`, result.ratios.getTuple_cold_growth, result.ratios.baseline_getTuple_cold_growth, ""),
          row("cold list(10) p50 / p95 ms", `${result.ours.list10_cold_p50_ms} / ${result.ours.list10_cold_p95_ms}`, `${result.baseline.list10_cold_p50_ms} / ${result.baseline.list10_cold_p95_ms}`, result.ratios.list10_cold_p50),
        ]),
      );
      const coldVs = result.ratios[`getTuple_cold_vs_baseline_turn${longTurns}` as keyof typeof result.ratios];
      console.log(`targets: cold getTuple growth ≤ 3 (${result.ratios.getTuple_cold_growth}), cold getTuple at turn ${longTurns} ours/official ≤ 0.5 (${coldVs}), putWrites official/ours ≥ 1.5 (${result.ratios.putWrites_p50})`);
      console.log(`\ntargets: storage ≥ 15 (${result.ratios.storage}), getTuple ≥ 4 (${result.ratios.getTuple_p50}), put ≥ 2 (${result.ratios.put_p50}), invoke ≥ 2 (${result.ratios.invoke_p50}), getTuple growth ≤ 1.5 (${result.ratios.getTuple_growth})`);
      if (values.json) {
        writeJson(values.json, result);
        console.log(`wrote ${values.json}`);
      }
      log("done");
      return 0;
    } finally {
      await ours.close();
      await db.close().catch(() => undefined);
      await baseline.end().catch(() => undefined);
      for (const schema of [oursSchema, baseSchema]) await admin.query(dropSchemaSql(quoteIdent(schema))).catch(() => undefined);
      await admin.end();
    }
  },
};

/** One task's write of one new message per call on each contender's micro thread, interleaved. */
function writeTasks(contenders: Contender[], threads: Map<string, { config: RunnableConfig }>, iterations: number): Promise<Record<string, number[]>> {
  return interleaved(contenders, iterations, (c, i) => {
    const t = threads.get(c.name)!;
    return c.saver.putWrites(t.config, [["messages", [message(100_000 + i)]]], `task-${i}`);
  });
}

/** `--only putWrites`: the micro thread (40 messages, built by puts as in the full run), then its writes. */
async function measurePutWrites(contenders: Contender[], iterations: number): Promise<Record<string, number[]>> {
  const threads = new Map<string, { config: RunnableConfig }>();
  for (const c of contenders) threads.set(c.name, await buildThread(c.saver, "micro", [], 40));
  return writeTasks(contenders, threads, iterations);
}

/** Run CHECKPOINT so dirty buffers are on disk before timing commits; false when not permitted. */
async function settle(client: pg.Client): Promise<boolean> {
  try {
    await client.query(CHECKPOINT_SQL);
    return true;
  } catch {
    return false;
  }
}

function flat(prefix: string, s: LatencySummary) {
  return { [`${prefix}_p50_ms`]: s.p50_ms, [`${prefix}_p95_ms`]: s.p95_ms } as Record<string, number>;
}

function mb(bytes: number): string {
  return `${round(bytes / 1024 / 1024, 2)} MB`;
}

function positiveInt(v: string, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  return n;
}
