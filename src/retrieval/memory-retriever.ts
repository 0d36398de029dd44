import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import type { MemoryRepository } from "../store/memory-store.js";
import type { MemoryScope } from "../core/scope.js";
import type { MemorySearchOptions } from "../store/types.js";

export interface MemoryRetrieverInput extends BaseRetrieverInput {
  store: MemoryRepository;
  /** Whose memories (required). */
  scope: MemoryScope;
  /** Search options: k (`limit`), kinds, include tenant/global knowledge, relevance floor. */
  search?: Omit<MemorySearchOptions, "queryEmbedding">;
}

/**
 * Long-term memories as a LangChain retriever: one `Document` per memory, its text as
 * `pageContent`, and id, kind, score parts, scope and dates in `metadata`. Read-only (does not
 * mark memories as used; the load-memory node does).
 *
 * @example
 * const retriever = new MemoryRetriever({ store, scope: { tenantId: "acme", userId: "alice" }, search: { limit: 5 } });
 * const docs = await retriever.invoke("what units does she like?");
 */
export class MemoryRetriever extends BaseRetriever {
  static override lc_name(): string {
    return "MemoryRetriever";
  }
  lc_namespace = ["langgraph_memory", "retrievers"];
  private readonly store: MemoryRepository;
  private readonly scope: MemoryScope;
  private readonly searchOptions: Omit<MemorySearchOptions, "queryEmbedding">;

  constructor(fields: MemoryRetrieverInput) {
    super(fields);
    this.store = fields.store;
    this.scope = fields.scope;
    this.searchOptions = fields.search ?? {};
  }

  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    const found = await this.store.search(this.scope, query, this.searchOptions);
    return found.map(
      (m) =>
        new Document({
          id: m.id,
          pageContent: m.text,
          metadata: {
            id: m.id,
            kind: m.kind,
            score: m.score,
            similarity: m.similarity,
            vectorSimilarity: m.vectorSimilarity,
            lexicalScore: m.lexicalScore,
            recency: m.recency,
            scope: m.scope,
            confidence: m.confidence,
            createdAt: m.createdAt.toISOString(),
            updatedAt: m.updatedAt.toISOString(),
            lastUsedAt: m.lastUsedAt?.toISOString() ?? null,
            expiresAt: m.expiresAt?.toISOString() ?? null,
            source: m.source,
            metadata: m.metadata,
          },
        }),
    );
  }
}
