/**
 * Ingest-side HyDE: for each chunk, the questions it answers, written by a model. They are
 * embedded with the chunk (never stored in its text, never cited), so a question phrased the way
 * users ask ("how do I move a pallet between sites?") lands near a chunk written the way docs
 * are ("POST /transfers creates a transfer order").
 */
export interface QuestionWriter {
  /** Names the method and model: part of the pipeline fingerprint and of the cache key. */
  readonly name: string;
  /** One list of questions per text, in input order (an empty list when the model gave none). */
  write(texts: readonly string[], signal?: AbortSignal): Promise<string[][]>;
  /** Present when a cache sits in front: the texts it holds no questions for yet. */
  uncached?(texts: readonly string[]): Promise<string[]>;
}
