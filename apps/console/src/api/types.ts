/** The shapes of the API's answers that the console reads (a subset of schema.graphql). */

export interface Job {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  progress: number;
  corpusVersion: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface Failure {
  sourceId: string;
  code: string;
  message: string;
}

export interface IngestResult {
  mode: 'inline' | 'queue';
  jobs: Job[];
  summary: {
    failures: Failure[];
    documents: { added: number; updated: number; unchanged: number; failed: number };
  } | null;
}

export interface DocumentSummary {
  id: string;
  title: string | null;
  kind: string;
  chunkCount: number;
  tokenCount: number;
  updatedAt: string;
}

export interface Chunk {
  index: number;
  text: string;
  startOffset: number;
  endOffset: number;
  sectionPath: string;
}

export interface DocumentDetail extends DocumentSummary {
  url: string | null;
  chunks: Chunk[];
}

export interface ChannelScore {
  score: number;
  rank: number;
  normalized: number;
}

export interface SearchHit {
  chunkId: string;
  sourceId: string;
  title: string | null;
  sectionPath: string;
  text: string;
  startOffset: number;
  endOffset: number;
  score: number;
  fusedScore: number;
  /** Graph entities (Type:name ids) the chunk mentions. */
  mentions: string[];
  channels: Record<string, ChannelScore>;
  rerank: { score: number; features?: Record<string, number> } | null;
}

export interface Citation {
  index: number;
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  snippet: string;
  startOffset: number;
  endOffset: number;
  score: number;
  pageNumber: number | null;
}

export interface AnswerEvent {
  type: 'stage' | 'delta' | 'citation' | 'final' | 'error';
  stage: string | null;
  status: string | null;
  ms: number | null;
  text: string | null;
  citation: Citation | null;
  answer: {
    answer: string;
    refused: boolean;
    citations: Citation[];
    selfCheck: { passed: boolean; citationCoverage: number; warnings: string[] };
  } | null;
  error: { code: string; message: string; retryable: boolean } | null;
}

/** One golden eval run (`evalRuns`); rates are fractions from 0 to 1. */
export interface EvalRun {
  id: string;
  startedAt: string;
  dataset: string;
  workspaceId: string;
  answerer: string;
  k: number;
  seconds: number;
  questions: number;
  answerable: number;
  hitRate: number;
  mrr: number;
  answerRecall: number;
  citationCoverage: number;
  citationPrecision: number;
  refusalAccuracy: number;
  refusedWhenRequired: number;
  refusalRequired: number;
  falseRefusals: number;
  endpointPrecisionAt1: number | null;
  latencyP50Ms: number;
  latencyP95Ms: number;
}

/** A run's parts (`evalRun`), asked for the chosen run only. */
export interface EvalRunDetail {
  id: string;
  stages: Array<{ stage: string; p50Ms: number; p95Ms: number }>;
  categories: Array<{
    category: string;
    questions: number;
    hitRate: number | null;
    mrr: number | null;
    answerRecall: number | null;
    refusalAccuracy: number;
  }>;
}
