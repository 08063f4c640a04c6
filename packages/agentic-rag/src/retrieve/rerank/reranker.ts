export interface RerankCandidate {
  id: number;
  text: string;
  title: string | null;
  sectionPath: string;
  /** Score from fusion, for rerankers that blend it in. */
  fusedScore: number;
}

export interface RerankOptions {
  query: string;
  candidates: readonly RerankCandidate[];
  signal?: AbortSignal;
}

export interface RerankResult {
  /** One score per candidate, in candidate order; higher is better. */
  scores: number[];
  /** Per-candidate feature values, for --explain and debug output. */
  features?: Array<Record<string, number>>;
}

/** Reorders the fused candidates. Adapters: heuristic (model-free), HTTP cross-encoder. */
export interface Reranker {
  readonly name: string;
  rerank(options: RerankOptions): Promise<RerankResult>;
}
