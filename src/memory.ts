import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Embeddings } from "@langchain/core/embeddings";
import { resolveConfig, type ConfigInput, type ResolvedConfig } from "./config.js";
import type { Database } from "./db/database.js";
import { openDatabase } from "./db/open.js";
import { PostgresCheckpointer } from "./checkpointer/postgres-checkpointer.js";
import type { PostgresCheckpointerOptions } from "./checkpointer/options.js";
import { MemoryRepository } from "./store/memory-store.js";
import { LangGraphStore } from "./store/langgraph-store.js";
import type { CandidateCache } from "./retrieval/candidate-cache.js";
import { candidateCacheOf, contextReaderOf } from "./retrieval/per-store.js";
import type { ContextReader } from "./retrieval/context-reader.js";
import { createEmbeddings } from "./embeddings/create-embeddings.js";
import { ProfileStore } from "./profile/profile-store.js";
import type { ProfileSchemaDefinition } from "./profile/index.js";
import { RuleStore } from "./procedural/rule-store.js";
import { MemorySettingsStore } from "./controls/settings-store.js";
import { MemoryControls } from "./controls/memory-controls.js";
import { RetentionSweep } from "./retention/retention-sweep.js";
import { JobQueue } from "./jobs/job-queue.js";
import { chatModelFromSpec } from "./models/chat-model.js";
import type { Clock } from "./controls/clock.js";

export interface CreateMemoryOptions extends Omit<ConfigInput, "model" | "embeddings"> {
  /** An open database to use (it is not closed by `close()`); default: opened from `databaseUrl`/`DATABASE_URL`/the embedded folder. */
  db?: Database;
  /** Chat model for extraction and summaries: an instance or `provider:model`; default `MODEL`, unset → offline; `null`: offline even when `MODEL` is set. */
  model?: BaseChatModel | string | null;
  /** Embeddings: an instance or `local` / `openai:<model>`; default `EMBEDDINGS` or `local`. */
  embeddings?: Embeddings | string;
  /** The app's profile schema (default: name, timezone, units, language, location, occupation, employer, plan, notes). */
  profile?: ProfileSchemaDefinition;
  checkpointer?: PostgresCheckpointerOptions;
  /** Tenant of the LangGraph `BaseStore` door (`langgraphStore`); default "default". */
  storeTenantId?: string;
  /**
   * Where "now" comes from for memory (default the system clock): recency and expiry of reads,
   * creation and expiry of writes, summaries and past sessions, the controls and the retention
   * sweep. Evals and tests move a `ManualClock`; the job queue keeps the database clock.
   */
  clock?: Clock;
}

/**
 * Every part of langgraph-memory on one database: checkpointer, long-term store (typed and
 * `BaseStore` doors), profile, rules, settings, controls, retention and the job queue.
 *
 * @example
 * const memory = await createMemory();                       // embedded, ./.langgraph-memory/
 * const graph = builder.compile({ checkpointer: memory.checkpointer, store: memory.langgraphStore });
 * await memory.controls.inspect({ tenantId: "acme", userId: "alice" });
 * await memory.close();
 */
export interface LangGraphMemory {
  readonly config: ResolvedConfig;
  readonly db: Database;
  /** The chat model for extraction/summaries, or undefined (offline defaults). */
  readonly model: BaseChatModel | undefined;
  readonly embeddings: Embeddings;
  readonly checkpointer: PostgresCheckpointer;
  readonly store: MemoryRepository;
  /**
   * The load-memory node's in-process cache of users' memories over `store`, built here and
   * subscribed to the store's usage events (`enabled` is false with `retrieval.candidateCacheMemories: 0`).
   */
  readonly candidateCache: CandidateCache | null;
  /**
   * How the load-memory node reads a turn's context: over the candidate cache while it is enabled,
   * else one SQL search per turn (`CachedContextReader` / `StatementContextReader`).
   */
  readonly contextReader: ContextReader;
  readonly langgraphStore: LangGraphStore;
  readonly profiles: ProfileStore;
  readonly rules: RuleStore;
  readonly settings: MemorySettingsStore;
  readonly controls: MemoryControls;
  readonly retention: RetentionSweep;
  readonly jobs: JobQueue;
  /** Close what `createMemory` opened (the database unless it was passed in). */
  close(): Promise<void>;
}

/** Open (or reuse) the database and build every part on it, configured once. */
export async function createMemory(options: CreateMemoryOptions = {}): Promise<LangGraphMemory> {
  const { db: givenDb, model: modelOption, embeddings: embeddingsOption, profile, checkpointer: checkpointerOptions, storeTenantId, clock, ...configInput } = options;
  const config = resolveConfig({
    ...configInput,
    model: typeof modelOption === "string" ? modelOption : undefined,
    embeddings: typeof embeddingsOption === "string" ? embeddingsOption : undefined,
  });
  const model = modelOption === null ? undefined : typeof modelOption === "object" ? modelOption : await chatModelFromSpec(config.model);
  const embeddings = typeof embeddingsOption === "object" ? embeddingsOption : await createEmbeddings(config.embeddings);
  const db =
    givenDb ??
    (await openDatabase(config.databaseUrl, { schema: config.schema, autoMigrate: config.autoMigrate, poolMax: config.poolMax, dataDir: config.dataDir }));
  const store = new MemoryRepository(db, { embeddings, retrieval: config.retrieval, writePolicy: config.writePolicy, clock });
  // Built here, where the parts are assembled: the store publishes its usage events, the cache subscribes.
  const candidateCache = candidateCacheOf(store);
  // The one choice between the two context readers, made where the parts are assembled.
  const contextReader = contextReaderOf(store);
  const checkpointer = PostgresCheckpointer.fromDatabase(db, checkpointerOptions);
  const profiles = new ProfileStore(db, { profile });
  const rules = new RuleStore(db);
  const settings = new MemorySettingsStore(db);
  const controls = new MemoryControls(db, { store, profiles, rules, settings, threads: checkpointer, clock });
  const retention = new RetentionSweep(db, { controls, retention: config.retention, episodeTtlDays: config.writePolicy.episodeTtlDays, clock });
  const jobs = new JobQueue(db);
  const dims = (await embeddings.embedQuery("dimension probe")).length;
  const langgraphStore = new LangGraphStore(db, { tenantId: storeTenantId, index: { dims, embeddings }, allowSpecialCategory: config.writePolicy.allowSpecialCategory, memories: store });
  let closed = false;
  return {
    config,
    db,
    model,
    embeddings,
    checkpointer,
    store,
    candidateCache,
    contextReader,
    langgraphStore,
    profiles,
    rules,
    settings,
    controls,
    retention,
    jobs,
    async close() {
      if (closed) return;
      closed = true;
      langgraphStore.stop();
      // Usage marks are batched off the response path: write the pending ones before closing.
      await store.flushUsage();
      await checkpointer.close();
      if (!givenDb) await db.close();
    },
  };
}
