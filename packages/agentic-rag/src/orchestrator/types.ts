import type { ChannelScore, RetrievalFilters } from '../retrieve/index.js';
import type { Correction } from '../understand/index.js';
import type { Logger } from '../telemetry/index.js';
import type { ConversationTurn } from '../conversation/index.js';
import type { AnswerEventListener, Citation, SelfCheck } from './answer-types.js';
import type { QuarantineRecord } from './quarantine/index.js';

export type { Citation, SelfCheck } from './answer-types.js';

export interface RagAnswerInput {
  query: string;
  workspaceId: string;
  /** Hits retrieved (1–50; default AGENTIC_RAG_TOPK). */
  topK?: number;
  /** Write a hypothetical answer and search with it too (default AGENTIC_RAG_USE_HYDE). */
  useHyde?: boolean;
  /** Let the plan call tools (default AGENTIC_RAG_USE_TOOLS). */
  useTools?: boolean;
  /** Parsed search filters (the service's FiltersSchema, retrieve/filters.ts). */
  filters?: RetrievalFilters;
  /** Return the plan, stage timings and candidates. */
  debug?: boolean;
  signal?: AbortSignal;
  /** The caller's logger (a request's, bound to its id); the run's lines add the run id to it. */
  logger?: Logger;
  /**
   * Earlier turns of the conversation the question belongs to, oldest first: the rewrite stage
   * makes a follow-up ("and how do I delete it?") stand alone against them. Such a run is not
   * cached (its answer depends on the turns, not only on the question).
   */
  history?: readonly ConversationTurn[];
  /** Called with each stage's progress and the final answer's pieces and citations (streaming). */
  onEvent?: AnswerEventListener;
  /**
   * The workspace's corpus version, when the caller has already read it on the connection this
   * run reads chunks from (the service's guard, without a replica): the answer is cached under
   * it. Absent, the run reads it itself.
   */
  corpusVersion?: number;
}

/** How a conversation's follow-up was made to stand alone. */
export interface FollowUpRewrite {
  /** The question the run answered: the follow-up resolved against the earlier turns. */
  standaloneQuery: string;
  /** False when the question already stood alone. */
  rewritten: boolean;
  /** `llm` when the configured model rewrote it, `rules` for the deterministic rewriter. */
  rewriter: 'rules' | 'llm';
}

export type PlanIntent = 'endpoint' | 'schema' | 'error' | 'entity' | 'arithmetic' | 'general';

export interface ToolRequest {
  name: string;
  input: Record<string, unknown>;
  /** Why the plan asked for it. */
  reason: string;
}

export interface Plan {
  intent: PlanIntent;
  /** How sure the understanding is of the intent (0 to 1). */
  confidence: number;
  /** The numbered entity the question names (`Algorithm 3.2`), if any. */
  entity: { type: string; number: string } | null;
  operationType: string | null;
  tools: ToolRequest[];
  useHyde: boolean;
}

export interface ToolCallRecord {
  name: string;
  input: unknown;
  ok: boolean;
  output: string | null;
  error: { code: string; message: string } | null;
  ms: number;
}

export interface Candidate {
  chunkId: string;
  sourceId: string;
  channelScores: Partial<Record<string, ChannelScore>>;
  finalScore: number;
}

export interface StageRecord {
  name: string;
  ms: number;
}

export interface AnswerDebug {
  plan: Plan;
  rewrittenQuery: string;
  corrections: Correction[];
  hydeDocument: string | null;
  stages: StageRecord[];
  candidates: Candidate[];
  toolCalls: ToolCallRecord[];
  /** The synthesis that produced the answer: extractive, llm, or refusal. */
  synthesis: string;
  /**
   * Units cut out of the sources before anything read them because they speak to the model
   * (planted instructions, credential requests, tool-call syntax): listed, never quoted.
   */
  quarantined: QuarantineRecord[];
}

export interface RagAnswer {
  answer: string;
  citations: Citation[];
  selfCheck: SelfCheck;
  /** True when nothing in the knowledge base answered the question well enough. */
  refused: boolean;
  cached: boolean;
  runId: string;
  traceId: string;
  /** The workspace's corpus version the answer was written from. */
  corpusVersion: number;
  debug: AnswerDebug | null;
  /** Only for a question asked with a history: how it was made to stand alone. */
  followUp?: FollowUpRewrite;
}
