import { Embeddings } from '@langchain/core/embeddings';
import type { Embedder } from '@agentic-rag/core';

/**
 * Our Embedder seen as a LangChain `Embeddings`, so the peer stores and queries with exactly the
 * vectors our pipeline computes for the same text. LangChain only accepts a subclass here, hence
 * the `extends` (the one place in the codebase that needs it).
 */
export class RuntimeEmbeddings extends Embeddings {
  constructor(private readonly embedder: Embedder) {
    // No retries: a benchmark run that fails should fail, not be timed with retries in it.
    super({ maxRetries: 0 });
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return (await this.embedder.embed({ texts: documents, purpose: 'document' })).embeddings;
  }

  async embedQuery(document: string): Promise<number[]> {
    const [vector] = (await this.embedder.embed({ texts: [document], purpose: 'query' })).embeddings;
    return vector!;
  }
}
