import { z } from "zod";
import { ErrorCodes, MemoryError } from "./errors.js";

/**
 * Token budgets of the assembled prompt (docs/configuration.md, `budgets`). Every section is capped separately so a
 * large memory set can never crowd out the conversation.
 */
export const BudgetsSchema = z.object({
  system: z.number().int().nonnegative().default(1500),
  profile: z.number().int().nonnegative().default(500),
  memories: z.number().int().nonnegative().default(1000),
  documents: z.number().int().nonnegative().default(4000),
  recentMessages: z.number().int().positive().default(6000),
  /** "Relevant past interactions" (summaries of earlier sessions). */
  pastSessions: z.number().int().nonnegative().default(500),
  outputReserve: z.number().int().nonnegative().default(2000),
});

/**
 * Query expansion through WordNet (src/language/lexicon): words related to the query's (synonyms,
 * hypernyms and hyponyms up to two steps, derivations) also match, each worth a share of an exact
 * word, so "ideas for my kid's party" reaches "my child loves unicorns".
 */
export const VocabularyBridgeSchema = z.object({
  /**
   * Off by default: measured on LoCoMo's test split it moved recall@10 by +0.001 and cost the load
   * node about 0.6 ms p50 (docs/benchmarks.md, "Vocabulary bridge"), above the response path's
   * +0.5 ms allowance. Turn it on where users ask with words their memories do not share.
   */
  enabled: z.boolean().default(false),
  /**
   * What a synonym is worth relative to an exact query word (other relations a fixed share of it:
   * RELATION_WEIGHTS in src/language/lexicon/vocabulary-bridge.ts). Tuned on LoCoMo's train split.
   */
  weight: z.number().min(0).max(1).default(0.3),
  /** Expansion terms per query at most (each word's best in turn). */
  maxTerms: z.number().int().min(0).max(256).default(64),
  /** Expansion terms one query word brings at most. */
  termsPerWord: z.number().int().min(1).max(64).default(16),
});

export const RetrievalSchema = z.object({
  topK: z.number().int().positive().max(100).default(8),
  similarityWeight: z.number().min(0).max(1).default(0.8),
  recencyWeight: z.number().min(0).max(1).default(0.2),
  /** Recency = exp(-age / recencyDecayDays), age from last use or creation. */
  recencyDecayDays: z.number().positive().default(30),
  /** Candidates whose relevance falls below this are never injected (except standing memories, `standingKinds`, in the load node). */
  relevanceFloor: z.number().min(0).max(1).default(0.3),
  /**
   * The relevance an archived memory needs (one the retention sweep set aside for going unused,
   * `retention.unusedDays`): only a strongly relevant one comes back, and using it un-archives it.
   * Never below `relevanceFloor` (the higher of the two applies).
   */
  archivedRelevanceFloor: z.number().min(0).max(1).default(0.5),
  /**
   * Kinds the load-memory node injects even below the relevance floor: a user's own durable facts
   * and preferences are context for any question ("Help me price a contract" needs "is a freelance
   * translator", though no word matches). They rank after the memories that match (same score:
   * similarity, then recency) and stay within topK and the memories budget. Only the
   * `standingLimit` most recently used (or created) of them are candidates this way, so the search
   * computes no vector similarity for the rest of the user's rows. `[]`: the floor for every kind.
   */
  standingKinds: z.array(z.enum(["preference", "fact", "entity", "episode", "procedure", "knowledge"])).default(["fact", "preference"]),
  /** How many standing memories (newest by last use or creation) a turn may inject below the floor. */
  standingLimit: z.number().int().min(0).max(1000).default(8),
  /**
   * Memories the load node's in-process candidate cache holds, over all users (least recently
   * used users go first; a user with more is not cached). 0 turns the cache off. See CandidateCache.
   */
  candidateCacheMemories: z.number().int().min(0).max(10_000_000).default(20_000),
  /**
   * Seconds a user's cached memories are used before they are read again. Changes are seen at once
   * whatever this is; it bounds how long another process's usage marks (recency) can be missed.
   */
  candidateCacheMaxAgeSeconds: z.number().min(0).max(86_400).default(300),
  /**
   * Share of full-text (BM25) relevance in the hybrid similarity; the rest is vector cosine.
   * Unset → 0.7 with the offline hashing embedder (lexical carries it), 0.3 with a neural one.
   */
  lexicalWeight: z.number().min(0).max(1).optional(),
  /** BM25 saturation: lexical relevance = bm25 / (bm25 + lexicalSaturation). */
  lexicalSaturation: z.number().positive().default(6),
  /** BM25 term-frequency saturation k1 and length normalisation b (tuned on LoCoMo). */
  bm25K1: z.number().positive().default(0.9),
  bm25B: z.number().min(0).max(1).default(0.4),
  /**
   * Pseudo-documents added to a scope's count for IDF: a word in 1 of a new user's 3 memories is
   * still a rare word, not a common one (without it small sets would score near zero).
   */
  bm25PriorDocs: z.number().min(0).default(100),
  /** Weight of a memory's indexing-only `context` words relative to its text. */
  contextWeight: z.number().min(0).max(1).default(0.3),
  vocabularyBridge: VocabularyBridgeSchema.default(VocabularyBridgeSchema.parse({})),
});

export const WritePolicySchema = z.object({
  confidenceFloor: z.number().min(0).max(1).default(0.7),
  /** Same kind and scope above this similarity → supersede instead of insert. */
  dedupeThreshold: z.number().min(0).max(1).default(0.9),
  episodeTtlDays: z.number().positive().default(180),
  /** Longest memory text accepted, in characters. */
  maxTextChars: z.number().int().positive().default(4000),
  /** Store health and other special-category data (off unless the app opts in). */
  allowSpecialCategory: z.boolean().default(false),
  /**
   * Approve at once the rules a user stated as standing instructions in their own words ("from now
   * on give me diffs", "always write tests first"): the user is their reviewer, and they take
   * effect next turn. Rules inferred from anything else stay `proposed` for review. False: every
   * rule waits for review.
   */
  approveStatedRules: z.boolean().default(false),
});

/**
 * The retention sweep (src/retention, docs/operations.md). Episode TTL is `writePolicy.episodeTtlDays`.
 */
export const RetentionSchema = z.object({
  /**
   * Extracted episodes and inferred memories not used for this many days (since last use, or
   * creation) are archived: retrieved only above `retrieval.archivedRelevanceFloor`, back once used.
   */
  unusedDays: z.number().positive().default(30),
  /** Inferred memories unused for longer than this start losing confidence. */
  decayAfterDays: z.number().nonnegative().default(30),
  /** Half-life of that decay: confidence ≤ 0.5^((idle days − decayAfterDays) / halfLife). */
  decayHalfLifeDays: z.number().positive().default(90),
  /** A decayed memory below this confidence is deactivated. */
  minConfidence: z.number().min(0).max(1).default(0.3),
  /** Rows per statement (each batch is its own short transaction). */
  batchSize: z.number().int().positive().max(10_000).default(500),
  /** How often the sweep is meant to run (for "next due"). */
  intervalHours: z.number().positive().default(24),
});

export const ConfigSchema = z.object({
  /** postgres://… (server), pglite:<dir> or memory:// (embedded); default: pglite in `dataDir`. */
  databaseUrl: z.string().min(1).optional(),
  /** Folder of the embedded database when no URL is given. */
  dataDir: z.string().min(1).default(".langgraph-memory"),
  /** Postgres schema holding every table of the plugin (any characters; quoted once). */
  schema: z.string().min(1).max(63).default("langgraph_memory"),
  /** Apply pending migrations when the database is opened. */
  autoMigrate: z.boolean().default(true),
  /** Server pool size. */
  poolMax: z.number().int().positive().max(1000).default(10),
  /** Chat model as `provider:model` (e.g. `openai:gpt-4o-mini`); unset → offline defaults. */
  model: z.string().min(1).optional(),
  /** Embeddings as `provider:model` (e.g. `openai:text-embedding-3-small`) or `local`. */
  embeddings: z.string().min(1).default("local"),
  budgets: BudgetsSchema.default(BudgetsSchema.parse({})),
  retrieval: RetrievalSchema.default(RetrievalSchema.parse({})),
  writePolicy: WritePolicySchema.default(WritePolicySchema.parse({})),
  retention: RetentionSchema.default(RetentionSchema.parse({})),
});

export type ConfigInput = z.input<typeof ConfigSchema>;
export type ResolvedConfig = z.output<typeof ConfigSchema>;
export type Budgets = z.output<typeof BudgetsSchema>;
export type RetrievalConfig = z.output<typeof RetrievalSchema>;
export type WritePolicyConfig = z.output<typeof WritePolicySchema>;
export type RetentionConfig = z.output<typeof RetentionSchema>;

/** Environment variables read when the matching option is not given. */
export const ENV_VARS = {
  databaseUrl: "DATABASE_URL",
  dataDir: "LANGGRAPH_MEMORY_DATA_DIR",
  schema: "LANGGRAPH_MEMORY_SCHEMA",
  model: "MODEL",
  embeddings: "EMBEDDINGS",
} as const;

/**
 * Parse configuration once: explicit options win over environment variables, then defaults.
 *
 * @example
 * const config = resolveConfig({ schema: "memory", budgets: { memories: 800 } });
 */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const fromEnv: Record<string, string> = {};
  for (const [key, name] of Object.entries(ENV_VARS)) {
    const value = env[name];
    if (value !== undefined && value !== "") fromEnv[key] = value;
  }
  const parsed = ConfigSchema.safeParse({ ...fromEnv, ...stripUndefined(input) });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new MemoryError(ErrorCodes.CONFIG_INVALID, `invalid langgraph-memory configuration: ${problems}`, {
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  }
  return parsed.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
