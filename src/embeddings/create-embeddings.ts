import type { Embeddings } from "@langchain/core/embeddings";
import { ErrorCodes, MemoryError } from "../errors.js";
import { importOptionalPeer } from "../models/optional-peer.js";
import { LocalHashingEmbeddings } from "./hashing-embeddings.js";

/**
 * Embeddings from a config string: `local` (the offline default) or `openai:<model>` (needs
 * `OPENAI_API_KEY`). Any other LangChain `Embeddings` instance can be passed to the store directly.
 *
 * @example
 * const embeddings = await createEmbeddings(process.env.EMBEDDINGS ?? "local");
 */
export async function createEmbeddings(spec: string = "local", env: NodeJS.ProcessEnv = process.env): Promise<Embeddings> {
  if (spec === "local" || spec.startsWith("local:")) {
    const dims = spec.startsWith("local:") ? Number(spec.slice(6)) : undefined;
    if (dims !== undefined && (!Number.isInteger(dims) || dims < 16 || dims > 8192)) {
      throw new MemoryError(ErrorCodes.CONFIG_INVALID, `embeddings "${spec}": local:<dims> needs an integer between 16 and 8192`);
    }
    return new LocalHashingEmbeddings({ dims });
  }
  const colon = spec.indexOf(":");
  const provider = colon > 0 ? spec.slice(0, colon) : "";
  const model = spec.slice(colon + 1);
  if (provider === "openai" && model) {
    if (!env.OPENAI_API_KEY) {
      throw new MemoryError(ErrorCodes.MODEL_UNAVAILABLE, `embeddings "${spec}" need OPENAI_API_KEY; set it or use EMBEDDINGS=local`);
    }
    const { OpenAIEmbeddings } = await importOptionalPeer("@langchain/openai", () => import("@langchain/openai"), `embeddings "${spec}"`);
    return new OpenAIEmbeddings({ model, apiKey: env.OPENAI_API_KEY });
  }
  throw new MemoryError(
    ErrorCodes.MODEL_UNAVAILABLE,
    `embeddings "${spec}" are not supported by name; use "local", "openai:<model>", or pass any LangChain Embeddings instance to the store`,
  );
}

/**
 * A stable name for an embedder, recorded beside its vectors: `local-hash-v1/512`,
 * `openai:text-embedding-3-small`, or the class name (plus `model` when it has one).
 */
export function embedderIdOf(embeddings: Embeddings): string {
  const e = embeddings as Embeddings & { embedderId?: unknown; model?: unknown; modelName?: unknown };
  if (typeof e.embedderId === "string") return e.embedderId;
  const model = typeof e.model === "string" ? e.model : typeof e.modelName === "string" ? e.modelName : undefined;
  const name = embeddings.constructor?.name ?? "Embeddings";
  if (name === "OpenAIEmbeddings" && model) return `openai:${model}`;
  return model ? `${name}:${model}` : name;
}
