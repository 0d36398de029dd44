import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import os from "node:os";
import { parseArgs } from "node:util";
import { openDatabase } from "../../db/open.js";
import { LocalHashingEmbeddings } from "../../embeddings/hashing-embeddings.js";
import { ExtractionStateSpec, createScheduleExtractionNode } from "../../extraction/node/index.js";
import { JobQueue } from "../../jobs/job-queue.js";
import { createLoadMemoryNode } from "../../graph/load-memory-node.js";
import { MemoryAnnotation } from "../../state/annotation.js";
import { MemoryRepository } from "../../store/memory-store.js";
import { candidateCacheOf } from "../../retrieval/per-store.js";
import type { Benchmark } from "./benchmark.js";
import { ProgressBar } from "../progress.js";
import { percentile, ratio, round, summarize, table, writeJson, type LatencySummary } from "./stats.js";
import { JOBS_BY_STATE_SQL, TOTAL_ACCESS_COUNT_SQL } from "./overhead-queries.js";

const USAGE = `usage: langgraph-memory bench overhead [--turns N] [--memories N] [--warmup N] [--json FILE]

What memory adds to the response path: the same chat graph with and without the memory nodes
(load_memory → agent → schedule_extraction vs agent alone), on embedded PGlite, one process,
turns interleaved in rotating order. Also side by side: the agent between two empty nodes
(LangGraph's own cost of two more steps) and a load node that reads memories only (no profile or
rules). The agent is a deterministic responder that yields to the event loop once (as a model call
would), and every graph has a MemorySaver checkpointer. The load node's candidate cache is on (the
store's default; its hits and misses are reported); a fifth graph runs the default load node with
the cache off (every turn searches in SQL, as the turn after a user's memories changed does), and
a sixth the default load node with WordNet query expansion on (retrieval.vocabularyBridge, off by
default), which prices the bridge in the same run.
What the load node injected is marked used after the turn, in batches (inside the timed loop).
Embeddings are precomputed (the offline hashing vectors, looked up) so the embedder is not timed.
Extraction itself is not on the response path and not timed: the schedule node queues a job.
  --turns N      timed turns per graph (default 300; 30 threads of N/30 turns)
  --memories N   memories of the benchmark user (default 200; 20 other users hold as many each)
  --warmup N     untimed turns per graph first (default 30)
  --json FILE    write the result as JSON (added_p50_ms, added_p95_ms, …)`;

/** The offline embedder with every text it will be asked for computed before timing starts. */
class PrecomputedEmbeddings extends LocalHashingEmbeddings {
  private readonly cache = new Map<string, number[]>();
  misses = 0;
  precompute(texts: Iterable<string>): void {
    for (const t of texts) if (!this.cache.has(t)) this.cache.set(t, this.embedSync(t));
  }
  override async embedQuery(text: string): Promise<number[]> {
    return this.lookup(text);
  }
  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.lookup(t));
  }
  private lookup(text: string): number[] {
    const hit = this.cache.get(text);
    if (hit) return hit;
    this.misses++;
    return this.embedSync(text);
  }
}

// Memories and questions over a 40-city × 40-hobby vocabulary: a question shares words with a
// few of the user's memories (as real ones do), not with all of them.
const CITIES = [
  "Oslo", "Lisbon", "Kyoto", "Denver", "Nairobi", "Quito", "Tallinn", "Hobart", "Porto", "Seoul", "Bergen", "Cusco", "Dakar", "Hanoi",
  "Krakow", "Lagos", "Malmo", "Nantes", "Osaka", "Perth", "Riga", "Sapporo", "Tbilisi", "Utrecht", "Valencia", "Windhoek", "Yerevan",
  "Zagreb", "Aarhus", "Bilbao", "Cork", "Dublin", "Essen", "Florence", "Graz", "Haifa", "Izmir", "Jaipur", "Kazan", "Leeds",
];
const HOBBIES = [
  "jazz", "climbing", "sourdough", "chess", "cycling", "orchids", "pottery", "sailing", "birding", "running", "knitting", "surfing",
  "origami", "fencing", "archery", "rowing", "juggling", "gardening", "calligraphy", "karate", "skiing", "bouldering", "woodworking",
  "beekeeping", "astronomy", "kayaking", "fishing", "golf", "tennis", "squash", "yoga", "pilates", "salsa", "tango", "hiking",
  "baking", "photography", "painting", "sculpture", "snorkeling",
];

function memoryText(i: number): string {
  const city = CITIES[(i * 7) % CITIES.length];
  const hobby = HOBBIES[(i * 11) % HOBBIES.length];
  const forms = [
    `User enjoys ${hobby} near ${city}.`,
    `User travelled to ${city} in ${2015 + (i % 10)} and liked the food.`,
    `User prefers ${i % 2 ? "metric" : "imperial"} units when talking about ${hobby}.`,
    `Ticket ${800 + i} about ${hobby} gear was solved by resetting the account.`,
  ];
  return `${forms[i % forms.length]} (${i})`;
}

function userTurn(thread: number, turn: number): string {
  const city = CITIES[(thread + turn * 3) % CITIES.length];
  const hobby = HOBBIES[(thread * 3 + turn) % HOBBIES.length];
  return `Turn ${turn}: I'm planning a trip to ${city} and want to fit in some ${hobby}. What should I pack, and any tips for the weekend?`;
}

const VARIANTS = ["plain", "noop", "memory", "retrieval", "uncached", "bridged"] as const;
type Variant = (typeof VARIANTS)[number];

interface Timings {
  turns: number[];
  /** CPU time of the process per turn (user + system): what a turn costs, without the waits a loaded machine adds. */
  cpu: number[];
  load: number[];
  schedule: number[];
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

export const benchmark: Benchmark = {
  summary: "latency the memory nodes add to a chat turn (with vs without, PGlite)",
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { turns: { type: "string" }, memories: { type: "string" }, warmup: { type: "string" }, json: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const turns = Number(values.turns ?? 300);
    const memoriesPerUser = Number(values.memories ?? 200);
    const warmup = Number(values.warmup ?? 30);
    for (const [name, v] of [["turns", turns], ["memories", memoriesPerUser], ["warmup", warmup]] as const) {
      if (!Number.isInteger(v) || v < 0 || (name === "turns" && v < 30)) {
        console.error(`--${name}: a non-negative integer${name === "turns" ? " of at least 30" : ""}`);
        return 2;
      }
    }
    const threads = 30;
    const perThread = Math.ceil((turns + warmup) / threads);

    const db = await openDatabase("memory://");
    try {
      const embeddings = new PrecomputedEmbeddings();
      const store = new MemoryRepository(db, { embeddings, embedderId: embeddings.embedderId });
      const user = { tenantId: "bench", userId: "user-0" };
      const seedTexts = Array.from({ length: memoriesPerUser }, (_, i) => memoryText(i));
      const turnTexts = Array.from({ length: threads }, (_, t) => Array.from({ length: perThread }, (_, k) => userTurn(t, k)));
      embeddings.precompute([...seedTexts, ...turnTexts.flat()]);
      const bar = new ProgressBar("seeding memories", 21 * memoriesPerUser);
      for (let u = 0; u <= 20; u++) {
        await store.addMany(
          { tenantId: "bench", userId: `user-${u}` },
          seedTexts.map((text, i) => ({ kind: (["preference", "fact", "preference", "episode"] as const)[i % 4], text, source: { origin: "extracted" as const } })),
        );
        bar.update((u + 1) * memoriesPerUser);
      }
      bar.done();

      // The same agent in every graph: a deterministic answer, no model. It yields to the event loop
      // once, as a model call does (work deferred off the response path, such as usage marks and
      // candidate cache fills, runs there; a loop of pure promise chains would never let it).
      const agent = async (state: { messages: BaseMessage[] }) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { messages: [new AIMessage(`Pack layers and good shoes (${state.messages.length} messages so far).`)] };
      };
      const empty = (): Timings => ({ turns: [], cpu: [], load: [], schedule: [] });
      const timings: Record<Variant, Timings> = { plain: empty(), noop: empty(), memory: empty(), retrieval: empty(), uncached: empty(), bridged: empty() };
      let recording = false;
      const timed = <S, U>(node: (s: S, c: RunnableConfig) => Promise<U>, into: number[]) => async (s: S, c: RunnableConfig) => {
        const t0 = now();
        const out = await node(s, c);
        if (recording) into.push(now() - t0);
        return out;
      };

      const State = Annotation.Root({ ...MemoryAnnotation.spec, ...ExtractionStateSpec });
      const plain = new StateGraph(State).addNode("agent", agent).addEdge(START, "agent").addEdge("agent", END).compile({ checkpointer: new MemorySaver() });
      // The same shape with two nodes that do nothing: what LangGraph itself charges for two more steps.
      const noop = new StateGraph(State)
        .addNode("before", async () => ({}))
        .addNode("agent", agent)
        .addNode("after", async () => ({}))
        .addEdge(START, "before")
        .addEdge("before", "agent")
        .addEdge("agent", "after")
        .addEdge("after", END)
        .compile({ checkpointer: new MemorySaver() });
      const memoryGraph = (load: ReturnType<typeof createLoadMemoryNode>, into: Timings, scheduleStore: MemoryRepository = store) =>
        new StateGraph(State)
          .addNode("load_memory", timed(load, into.load))
          .addNode("agent", agent)
          .addNode("schedule_extraction", timed(createScheduleExtractionNode({ store: scheduleStore }), into.schedule))
          .addEdge(START, "load_memory")
          .addEdge("load_memory", "agent")
          .addEdge("agent", "schedule_extraction")
          .addEdge("schedule_extraction", END)
          .compile({ checkpointer: new MemorySaver() });
      // The default load node (opt-out, profile, approved rules and memories in one round trip; what
      // it injected is marked used after the turn, batched) and one that reads memories only.
      const withMemory = memoryGraph(createLoadMemoryNode({ store }), timings.memory);
      const retrievalOnly = memoryGraph(createLoadMemoryNode({ store, profiles: false, rules: false }), timings.retrieval);
      // The default load node on a store without the candidate cache: every turn searches in SQL, as
      // the turn right after the user's memories changed does.
      const uncachedStore = new MemoryRepository(db, { embeddings, embedderId: embeddings.embedderId, candidateCache: false });
      const uncached = memoryGraph(createLoadMemoryNode({ store: uncachedStore }), timings.uncached, uncachedStore);
      // The default load node with WordNet query expansion on (off by default): what the bridge costs.
      const bridgedStore = new MemoryRepository(db, {
        embeddings,
        embedderId: embeddings.embedderId,
        retrieval: { vocabularyBridge: { ...store.retrieval.vocabularyBridge, enabled: true } },
      });
      const bridged = memoryGraph(createLoadMemoryNode({ store: bridgedStore }), timings.bridged, bridgedStore);
      const graphs = { plain, noop, memory: withMemory, retrieval: retrievalOnly, uncached, bridged };

      const config = (graph: string, thread: number): RunnableConfig => ({ configurable: { thread_id: `${graph}-${thread}`, tenant_id: user.tenantId, user_id: user.userId } });
      const progress = new ProgressBar("turns", turns + warmup);
      let n = 0;
      for (let k = 0; k < perThread && n < turns + warmup; k++) {
        for (let t = 0; t < threads && n < turns + warmup; t++, n++) {
          recording = n >= warmup;
          const input = () => ({ messages: [new HumanMessage(turnTexts[t][k])] });
          // Rotate the order so drift in load hits every variant alike.
          for (let v = 0; v < VARIANTS.length; v++) {
            const which = VARIANTS[(n + v) % VARIANTS.length];
            const c0 = process.cpuUsage();
            const t0 = now();
            await graphs[which].invoke(input(), config(which, t));
            if (recording) {
              timings[which].turns.push(now() - t0);
              const c = process.cpuUsage(c0);
              timings[which].cpu.push((c.user + c.system) / 1000);
            }
          }
          progress.update(n + 1);
        }
      }
      progress.done();

      const plainS = summarize(timings.plain.turns);
      const s = Object.fromEntries(VARIANTS.map((v) => [v, summarize(timings[v].turns)])) as Record<Variant, LatencySummary>;
      const addedOf = (v: Variant) => ({ p50: round(s[v].p50_ms - plainS.p50_ms), p95: round(s[v].p95_ms - plainS.p95_ms), mean: round(s[v].mean_ms - plainS.mean_ms) });
      const added = addedOf("memory");
      const cpuS = Object.fromEntries(VARIANTS.map((v) => [v, summarize(timings[v].cpu)])) as Record<Variant, LatencySummary>;
      const addedCpu = { p50: round(cpuS.memory.p50_ms - cpuS.plain.p50_ms), p95: round(cpuS.memory.p95_ms - cpuS.plain.p95_ms), mean: round(cpuS.memory.mean_ms - cpuS.plain.mean_ms) };
      const paired = timings.memory.turns.map((v, i) => v - timings.plain.turns[i]);
      const loadS = summarize(timings.memory.load);
      const scheduleS = summarize(timings.memory.schedule);
      const retrievalLoadS = summarize(timings.retrieval.load);
      const nodesSum = timings.memory.load.map((v, i) => v + timings.memory.schedule[i]);
      // The schedule node submits to the queue's inbox; a worker's claim folds it into jobs.
      await new JobQueue(db).foldInbox();
      const jobs = (await db.query<{ state: string; n: number }>(JOBS_BY_STATE_SQL)).rows;
      // Usage marks are written in batches a moment after each turn (their cost falls inside the
      // timed loop, on whichever turn is running); write the last batch before reading the totals.
      await store.flushUsage();
      await uncachedStore.flushUsage();
      await bridgedStore.flushUsage();
      const used = (await db.query<{ n: number }>(TOTAL_ACCESS_COUNT_SQL)).rows[0].n;
      const cacheStats = candidateCacheOf(store)?.stats ?? null;

      const row = (label: string, x: { p50_ms: number; p95_ms: number; mean_ms: number }) => [label, x.p50_ms, x.p95_ms, x.mean_ms];
      const addedRow = (label: string, v: Variant) => {
        const a = addedOf(v);
        return [label, a.p50, a.p95, a.mean];
      };
      console.log(
        table(
          ["per turn", "p50 ms", "p95 ms", "mean ms"],
          [
            row("chat graph, no memory", plainS),
            row("+ two empty nodes (LangGraph's own cost)", s.noop),
            row("+ load_memory + schedule_extraction", s.memory),
            row("+ load_memory (memories only) + schedule", s.retrieval),
            row("+ load_memory (cache off) + schedule", s.uncached),
            row("+ load_memory (vocabulary bridge on) + schedule", s.bridged),
            addedRow("added: two empty nodes", "noop"),
            addedRow("ADDED: memory nodes (default load)", "memory"),
            addedRow("added: memory nodes (memories-only load)", "retrieval"),
            addedRow("added: memory nodes, candidate cache off", "uncached"),
            addedRow("added: memory nodes, vocabulary bridge on", "bridged"),
            ["added: memory nodes, per-turn pairs", round(percentile(paired, 50)), round(percentile(paired, 95)), ""],
            row("  load_memory node (default)", loadS),
            row("  load_memory node (memories only)", retrievalLoadS),
            row("  load_memory node (cache off)", summarize(timings.uncached.load)),
            row("  load_memory node (vocabulary bridge on)", summarize(timings.bridged.load)),
            row("  schedule_extraction node", scheduleS),
            ["  both nodes (default load)", round(percentile(nodesSum, 50)), round(percentile(nodesSum, 95)), ""],
            row("CPU per turn, no memory", cpuS.plain),
            row("CPU per turn, with memory nodes", cpuS.memory),
            ["added CPU: memory nodes (default load)", addedCpu.p50, addedCpu.p95, addedCpu.mean],
          ],
        ),
      );
      console.log(
        `\n${timings.plain.turns.length} timed turns per graph (${warmup} warm-up), ${memoriesPerUser} memories for the user (${21 * memoriesPerUser} in all), PGlite in-process, load average ${os.loadavg()[0].toFixed(2)}; ` +
          `with / without memory p50 ${ratio(s.memory.p50_ms, plainS.p50_ms)}×, p95 ${ratio(s.memory.p95_ms, plainS.p95_ms)}×; ` +
          `target ≤ 5 ms added p95: ${added.p95 <= 5 ? "met" : "NOT met"}. Jobs queued: ${jobs.map((j) => `${j.n} ${j.state}`).join(", ")}; memory uses recorded: ${used}; embedder cache misses ${embeddings.misses}; ` +
          `candidate cache: ${cacheStats ? `${cacheStats.hits} hits, ${cacheStats.misses} misses, ${cacheStats.fills} fills, ${cacheStats.fillErrors} fill errors` : "off"}.`,
      );
      const memoryS = s.memory;
      if (values.json) {
        const detail = (s: LatencySummary) => ({ p50_ms: s.p50_ms, p95_ms: s.p95_ms, mean_ms: s.mean_ms, n: s.n });
        writeJson(values.json, {
          engine: "pglite",
          turns: timings.plain.turns.length,
          warmup,
          memories_per_user: memoriesPerUser,
          added_p50_ms: added.p50,
          added_p95_ms: added.p95,
          target_added_p95_ms: 5,
          meets_target: added.p95 <= 5,
          plain: detail(plainS),
          with_memory: detail(memoryS),
          added_paired: { p50_ms: round(percentile(paired, 50)), p95_ms: round(percentile(paired, 95)) },
          cpu: { plain: detail(cpuS.plain), with_memory: detail(cpuS.memory), added_p50_ms: addedCpu.p50, added_p95_ms: addedCpu.p95, added_mean_ms: addedCpu.mean },
          load_average: os.loadavg().map((x) => round(x, 2)),
          two_empty_nodes: { ...detail(s.noop), added_p50_ms: addedOf("noop").p50, added_p95_ms: addedOf("noop").p95 },
          no_candidate_cache: { ...detail(s.uncached), added_p50_ms: addedOf("uncached").p50, added_p95_ms: addedOf("uncached").p95, load_memory: detail(summarize(timings.uncached.load)) },
          vocabulary_bridge_on: { ...detail(s.bridged), added_p50_ms: addedOf("bridged").p50, added_p95_ms: addedOf("bridged").p95, load_memory: detail(summarize(timings.bridged.load)) },
          memories_only_load: { ...detail(s.retrieval), added_p50_ms: addedOf("retrieval").p50, added_p95_ms: addedOf("retrieval").p95, load_memory: detail(retrievalLoadS) },
          nodes: { load_memory: detail(loadS), schedule_extraction: detail(scheduleS), both: { p50_ms: round(percentile(nodesSum, 50)), p95_ms: round(percentile(nodesSum, 95)) } },
          jobs: Object.fromEntries(jobs.map((j) => [j.state, j.n])),
          memory_uses_recorded: used,
          embedder_cache_misses: embeddings.misses,
          candidate_cache: cacheStats ? { hits: cacheStats.hits, misses: cacheStats.misses, fills: cacheStats.fills, fill_errors: cacheStats.fillErrors } : null,
        });
        console.log(`wrote ${values.json}`);
      }
      return 0;
    } finally {
      await db.close();
    }
  },
};
