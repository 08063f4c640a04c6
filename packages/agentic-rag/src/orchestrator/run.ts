import { randomUUID } from 'node:crypto';
import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { Config } from '../config/index.js';
import { toRagError } from '../errors/index.js';
import { type KnowledgeContext, type RetrievalFilters, type RetrievalResult } from '../retrieve/index.js';
import { stageDuration, type Logger } from '../telemetry/index.js';
import type { QuarantineRecord } from './quarantine/index.js';
import type { Source } from './answer-types.js';
import type { Rewrite } from './stages/rewrite.js';
import type { Understanding } from '../understand/index.js';
import type { Synthesis } from './stages/synthesize.js';
import type {
  AnswerDebug,
  FollowUpRewrite,
  Plan,
  RagAnswerInput,
  StageRecord,
  ToolCallRecord,
} from './types.js';

/*
 * One run's state and how a stage records itself on it. The orchestrator decides which stage
 * comes next; everything a stage leaves behind (its result, its timing, its span, its stream
 * event) lands on the `Run` through the functions here, and the debug view is read back off it.
 */

export const MAX_TOP_K = 50;

export type StageName =
  'plan' | 'rewrite' | 'hyde' | 'retrieve' | 'quarantine' | 'tools' | 'synthesize' | 'refuse' | 'self-check';

/** Everything one run accumulates as it moves through the stages. */
export interface Run {
  runId: string;
  /** The understanding's evidence, not the wording, made this an API question (see plan). */
  apiSubject?: boolean;
  /** The question understood once by the plan stage, read by every later stage. */
  understanding?: Understanding;
  /** The caller's logger (a request's, with its id) bound to this run's id. */
  logger: Logger;
  input: Required<
    Pick<RagAnswerInput, 'query' | 'workspaceId' | 'topK' | 'useHyde' | 'useTools' | 'debug' | 'history'>
  >;
  /** The streaming listener, when the caller streams (a no-op otherwise). */
  emit: NonNullable<RagAnswerInput['onEvent']>;
  /** A conversation's question made standalone by the rewrite stage (its query replaces the input's). */
  followUp?: FollowUpRewrite;
  filters: RetrievalFilters;
  signal: AbortSignal | undefined;
  /** The corpus version the run's answer is cached under, read once and handed to retrieval. */
  corpusVersion?: number;
  plan?: Plan;
  rewrite?: Rewrite;
  hyde: string | null;
  retrieval?: RetrievalResult;
  context?: KnowledgeContext;
  sources: Source[];
  toolCalls: ToolCallRecord[];
  synthesis?: Synthesis;
  method: string;
  refused: boolean;
  stages: StageRecord[];
  warnings: string[];
  /** What a tool said does not exist (the numbered entity the question names). */
  missing: string[];
  /** Units cut out of the sources because they speak to the model, not the reader. */
  quarantined: QuarantineRecord[];
}

export const tracer = trace.getTracer('agentic-rag');

/**
 * A new run from its input, which the service has validated (the query, the workspace, topK and
 * the filters are checked once, there: service/answers.ts), with the deployment's defaults filled in.
 */
export function startRun(input: RagAnswerInput, config: Config, logger: Logger): Run {
  const query = input.query.trim();
  const topK = input.topK ?? config.AGENTIC_RAG_TOPK;
  return {
    runId: randomUUID(),
    logger: input.logger ?? logger,
    input: {
      query,
      workspaceId: input.workspaceId,
      topK,
      useHyde: input.useHyde ?? config.AGENTIC_RAG_USE_HYDE,
      useTools: input.useTools ?? config.AGENTIC_RAG_USE_TOOLS,
      debug: input.debug ?? false,
      history: input.history ?? [],
    },
    emit: input.onEvent ?? (() => {}),
    filters: input.filters ?? {},
    signal: input.signal,
    hyde: null,
    sources: [],
    toolCalls: [],
    method: 'extractive',
    refused: false,
    stages: [],
    warnings: [],
    missing: [],
    quarantined: [],
  };
}

/**
 * Runs a stage as a span `rag.<name>` carrying the run's id and workspace, plus what `describe`
 * reads off its result: counts and flags, never query or document text. The stage's timing goes
 * to the run's `stages`, the latency histogram and the stream (a started and a finished event).
 */
export async function timeStage<T>(
  run: Run,
  name: string,
  work: () => Promise<T>,
  describe?: (result: T) => Attributes,
): Promise<T> {
  const started = performance.now();
  run.emit({ type: 'stage', stage: name, status: 'started' });
  return tracer.startActiveSpan(`rag.${name}`, async (span: Span) => {
    span.setAttributes({ 'rag.run_id': run.runId, 'rag.workspace': run.input.workspaceId });
    try {
      const result = await work();
      if (describe) span.setAttributes(describe(result));
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: toRagError(error).code });
      throw error;
    } finally {
      const ms = performance.now() - started;
      run.stages.push({ name, ms: Number(ms.toFixed(2)) });
      run.emit({ type: 'stage', stage: name, status: 'finished', ms: Number(ms.toFixed(2)) });
      stageDuration.observe({ stage: name }, ms / 1000);
      span.end();
    }
  });
}

/** The run's `debug` view: plan, rewrites, stage timings (retrieval's own inside), candidates, tools. */
export function runDebug(run: Run): AnswerDebug {
  return {
    plan: run.plan!,
    rewrittenQuery: run.rewrite!.query,
    corrections: run.rewrite!.corrections,
    hydeDocument: run.hyde,
    stages: [
      ...run.stages,
      ...(run.retrieval?.stats.stages.map((stage) => ({ ...stage, name: `retrieve.${stage.name}` })) ?? []),
    ],
    candidates: (run.retrieval?.hits ?? []).map((hit) => ({
      chunkId: hit.chunkId,
      sourceId: hit.sourcePath,
      channelScores: hit.channels,
      finalScore: Number(hit.score.toFixed(4)),
    })),
    toolCalls: run.toolCalls,
    synthesis: run.method,
    quarantined: run.quarantined,
  };
}

/** What the retrieve stage found, as counts: per-channel candidates, hits, and the context built. */
export function retrievalAttributes(run: Run): Attributes {
  const { retrieval, context } = run;
  return {
    'rag.retrieve.candidates.vector': retrieval?.stats.candidates.vector ?? 0,
    'rag.retrieve.candidates.lexical': retrieval?.stats.candidates.lexical ?? 0,
    'rag.retrieve.candidates.graph': retrieval?.stats.candidates.graph ?? 0,
    'rag.retrieve.hits': retrieval?.hits.length ?? 0,
    'rag.context.primary': context?.primary.length ?? 0,
    'rag.context.references': context?.references.length ?? 0,
    'rag.context.tokens': context?.totalTokens ?? 0,
    'rag.context.partial': context?.stats.partial ?? false,
    'rag.sources': run.sources.length,
  };
}
