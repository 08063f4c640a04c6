/** Queries and documents may be embedded differently (instruction-tuned models prefix them). */
export type EmbeddingPurpose = 'document' | 'query';

export interface EmbedOptions {
  texts: readonly string[];
  purpose?: EmbeddingPurpose;
  signal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per input text, in input order, each of length `dimensions`. */
  embeddings: number[][];
  /** Tokens billed by the provider, when it reports them. */
  tokens?: number;
}

export interface Embedder {
  /** Stored with every chunk; a different model id means the vectors are not comparable. */
  readonly modelId: string;
  readonly dimensions: number;
  embed(options: EmbedOptions): Promise<EmbedResult>;
  /** Present when a cache sits in front: the document texts it does not hold yet. */
  uncached?(texts: readonly string[]): Promise<string[]>;
}
