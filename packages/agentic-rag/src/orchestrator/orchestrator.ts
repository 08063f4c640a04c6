import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { AnswerCache } from '../cache/index.js';
import type { Config } from '../config/index.js';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { GraphStore } from '../graph/index.js';
import type { Llm } from '../llm/index.js';
import { coversObject } from '../operations/index.js';
import { buildContext, type HybridRetriever } from '../retrieve/index.js';
import type { ChunkReader } from '../store/index.js';
import { answersTotal, cacheLookups, silentLogger, type Logger } from '../telemetry/index.js';
import type { LookupResult, ToolRouter } from '../tools/index.js';
import { quarantineSources, quarantineWarnings } from './quarantine/index.js';
import { publishAnswer } from './events.js';
import {
  retrievalAttributes,
  runDebug,
  startRun,
  timeStage,
  tracer,
  type Run,
  type StageName,
} from './run.js';
import type { Source } from './answer-types.js';
import { contextSources, toCitations } from './sources.js';
import { evidence, unknownFocus, unknownNames } from './stages/evidence.js';
import { requestExamples } from './stages/examples.js';
import { resolveFollowUp } from './stages/follow-up.js';
import { hydeDocument } from './stages/hyde.js';
import { llmAnswer } from './stages/llm-answer.js';
import { plan } from './stages/plan.js';
import { refusal, refusalCheck } from './stages/refusal.js';
import { rewrite } from './stages/rewrite.js';
import { selfCheck } from './stages/self-check.js';
import { extractiveAnswer, sameOperations } from './stages/synthesize.js';
import type { RagAnswer, RagAnswerInput } from './types.js';

export { MAX_TOP_K } from './run.js';

export interface OrchestratorDeps {
  config: Config;
  /** Reads the context's chunks and the corpus version, on the side the retrieval reads. */
  chunks: ChunkReader;
  retriever: HybridRetriever;
  graph: GraphStore;
  llm: Llm | null;
  tools: ToolRouter | null;
  cache: AnswerCache | null;
  logger?: Logger;
}

/**
 * ragAnswer as a state machine: plan → rewrite → HyDE (when asked) → retrieve → tools (when the
 * plan wants any) → synthesize, or refuse when nothing retrieved covers the question → self-check.
 * Each stage is a span, a latency histogram sample and a line in `debug.stages`. Every stage has
 * a path that needs no model, so the whole run works offline; with an LLM, HyDE and synthesis use
 * it, and an LLM answer that fails the self-check is replaced by the extractive one.
 */
export class RagOrchestrator {
  private readonly logger: Logger;

  constructor(private readonly deps: OrchestratorDeps) {
    this.logger = deps.logger ?? silentLogger;
  }

  async answer(input: RagAnswerInput): Promise<RagAnswer> {
    const run = startRun(input, this.deps.config, this.logger);
    return tracer.startActiveSpan('ragAnswer', async (span) => {
      const { runId } = run;
      const started = performance.now();
      const spanTrace = span.spanContext().traceId;
      // With tracing off the span is a no-op with an all-zero id; the answer still gets a unique one.
      const traceId = /^0+$/.test(spanTrace) ? randomUUID().replaceAll('-', '') : spanTrace;
      run.logger = run.logger.child({ runId, traceId });
      span.setAttributes({
        'rag.run_id': runId,
        'rag.workspace': run.input.workspaceId,
        'rag.top_k': run.input.topK,
      });
      try {
        const corpusVersion = input.corpusVersion ?? (await this.corpusVersion(run.input.workspaceId));
        run.corpusVersion = corpusVersion;
        const key = {
          workspaceId: run.input.workspaceId,
          corpusVersion,
          query: run.input.query,
          options: {
            topK: run.input.topK,
            useHyde: run.input.useHyde,
            useTools: run.input.useTools,
            filters: run.filters,
          },
        };
        // A follow-up's answer depends on the conversation too: not a key the cache can hold.
        const hit = run.input.history.length > 0 ? null : await this.cacheGet(key, run.logger);
        span.setAttributes({ 'rag.corpus_version': corpusVersion, 'rag.cached': hit !== null });
        if (hit) {
          answersTotal.inc({ outcome: 'cached' });
          this.finished(run, span, hit, started, true);
          // An entry cached before quarantine existed has no list: it quarantined nothing.
          const debug =
            run.input.debug && hit.debug ? { ...hit.debug, quarantined: hit.debug.quarantined ?? [] } : null;
          publishAnswer(hit.answer, hit.citations, run.emit);
          return { ...hit, cached: true, runId, traceId, debug };
        }
        let state: StageName | 'done' = 'plan';
        while (state !== 'done') {
          state = await this.step(state, run);
          // A caller that went away (a closed stream) stops the run between stages.
          if (run.signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'the request was aborted');
          // Each stage is its own turn of the event loop: twenty answers in flight must not keep
          // a health check or another request's I/O waiting behind all of their CPU at once.
          await nextTurn();
        }
        // Only a model's answer can still be replaced (by the self-check below): any other is final now.
        const finalBeforeCheck = run.method !== 'llm';
        if (finalBeforeCheck)
          publishAnswer(run.synthesis!.answer, toCitations(run.synthesis!.cited), run.emit);
        const check = await timeStage(
          run,
          'self-check',
          async () =>
            run.refused
              ? refusalCheck(run.sources)
              : selfCheck(run.synthesis!.answer, run.synthesis!.cited, run.sources, {
                  query: run.rewrite!.query,
                }),
          (result) => ({
            'rag.self_check.passed': result.passed,
            'rag.self_check.coverage': result.citationCoverage,
            'rag.self_check.unsupported': result.unsupportedSentences.length,
            'rag.self_check.warnings': result.warnings.length,
          }),
        );
        if (!run.refused && !check.passed && run.method === 'llm') {
          // The model's answer is not backed by its sources: fall back to quoting them.
          run.warnings.push(
            `LLM answer failed the self-check (coverage ${check.citationCoverage}); answered extractively`,
          );
          run.synthesis = this.extractive(run);
          run.method = 'extractive';
          if (run.synthesis.notAddressed) {
            // Nothing quotable addresses the question either: say so rather than guess.
            run.synthesis = refusal(run.sources);
            run.method = 'refusal';
            run.refused = true;
            Object.assign(check, refusalCheck(run.sources));
          } else
            Object.assign(
              check,
              selfCheck(run.synthesis.answer, run.synthesis.cited, run.sources, {
                query: run.rewrite!.query,
              }),
            );
        }
        if (!finalBeforeCheck)
          publishAnswer(run.synthesis!.answer, toCitations(run.synthesis!.cited), run.emit);
        run.warnings.push(...quarantineWarnings(run.quarantined));
        check.warnings.unshift(...run.warnings);
        const answer: RagAnswer = {
          answer: run.synthesis!.answer,
          citations: toCitations(run.synthesis!.cited),
          selfCheck: check,
          refused: run.refused,
          cached: false,
          runId,
          traceId,
          corpusVersion,
          debug: runDebug(run),
          ...(run.followUp ? { followUp: run.followUp } : {}),
        };
        answersTotal.inc({ outcome: run.refused ? 'refused' : 'answered' });
        this.finished(run, span, answer, started, false);
        await this.cacheSet(key, answer, run.logger);
        return { ...answer, debug: run.input.debug ? answer.debug : null };
      } catch (error) {
        const ragError = toRagError(error);
        answersTotal.inc({ outcome: 'failed' });
        run.logger.warn('ragAnswer failed', {
          event: 'answer-failed',
          workspaceId: run.input.workspaceId,
          code: ragError.code,
        });
        span.recordException(ragError);
        span.setStatus({ code: SpanStatusCode.ERROR, message: ragError.code });
        throw ragError;
      } finally {
        span.end();
      }
    });
  }

  /** The run's outcome on its root span and in one log line: counts and flags, never the text. */
  private finished(run: Run, span: Span, answer: RagAnswer, started: number, cached: boolean): void {
    span.setAttributes({
      'rag.refused': answer.refused,
      'rag.citations': answer.citations.length,
      'rag.self_check.passed': answer.selfCheck.passed,
    });
    run.logger.info('ragAnswer done', {
      event: 'answer-done',
      workspaceId: run.input.workspaceId,
      cached,
      refused: answer.refused,
      citations: answer.citations.length,
      selfCheckPassed: answer.selfCheck.passed,
      ms: Number((performance.now() - started).toFixed(1)),
    });
  }

  /** The sources with the units that speak to the model cut out; the cut units join the run's list. */
  private async quarantine(run: Run, sources: readonly Source[]): Promise<Source[]> {
    // A sentence cut by a chunk boundary is read whole: an instruction split across two chunks
    // must not pass as two innocent halves.
    const around = await this.deps.chunks.surroundings(
      run.input.workspaceId,
      sources.filter((source) => source.origin !== 'tool').map((source) => source.chunkId),
      SURROUNDING_CHARS,
    );
    const result = await quarantineSources(sources, around);
    run.quarantined.push(...result.quarantined);
    if (result.quarantined.length > 0) {
      run.logger.warn('source text quarantined', {
        event: 'source-quarantined',
        units: result.quarantined.length,
        sources: [...new Set(result.quarantined.map((entry) => entry.sourceId))],
        rules: [...new Set(result.quarantined.flatMap((entry) => entry.rules))],
      });
    }
    return result.sources;
  }

  /** Runs one stage and says which comes next. */
  private async step(state: StageName, run: Run): Promise<StageName | 'done'> {
    const { input } = run;
    switch (state) {
      case 'plan':
        run.plan = await timeStage(
          run,
          'plan',
          async () => {
            // A follow-up is made to stand alone first: from here on the run answers that.
            if (input.history.length > 0) await this.standalone(run);
            run.understanding = await this.deps.retriever.understand(input.workspaceId, input.query, {
              signal: run.signal,
              corpusVersion: run.corpusVersion,
            });
            // Retrieval's evidence, not the wording, made this an API question ("How do I get rid
            // of a returns centre?"): the answer names the operation when one is found.
            run.apiSubject =
              run.understanding.intent.kind === 'endpoint' && run.understanding.intent.source === 'evidence';
            return plan(run.understanding, {
              useTools: input.useTools && this.deps.tools !== null,
              useHyde: input.useHyde,
            });
          },
          (result) => ({
            'rag.plan.intent': result.intent,
            'rag.plan.confidence': result.confidence,
            'rag.plan.tools': result.tools.length,
            'rag.plan.hyde': result.useHyde,
          }),
        );
        return 'rewrite';
      case 'rewrite':
        run.rewrite = await timeStage(
          run,
          'rewrite',
          async () => rewrite(run.understanding!),
          (result) => ({
            'rag.rewrite.corrections': result.corrections.length,
            'rag.rewrite.expansions': result.expansions.length,
            'rag.rewrite.follow_up': run.followUp?.rewritten ?? false,
          }),
        );
        return run.plan!.useHyde ? 'hyde' : 'retrieve';
      case 'hyde': {
        const document = await timeStage(
          run,
          'hyde',
          () =>
            hydeDocument(run.rewrite!.query, {
              llm: this.deps.llm,
              retriever: this.deps.retriever,
              workspaceId: input.workspaceId,
              filters: run.filters,
              corpusVersion: run.corpusVersion,
              ...(run.signal ? { signal: run.signal } : {}),
            }).catch((error: unknown) => {
              // HyDE only widens the search: without it the run still answers.
              run.warnings.push(`HyDE skipped (${toRagError(error).code})`);
              return null;
            }),
          (result) => ({ 'rag.hyde.written': result !== null }),
        );
        run.hyde = document?.text ?? null;
        return 'retrieve';
      }
      case 'retrieve':
        await timeStage(
          run,
          'retrieve',
          async () => {
            run.retrieval = await this.deps.retriever.retrieve({
              workspaceId: input.workspaceId,
              query: run.rewrite!.query,
              understanding: run.understanding!,
              k: input.topK,
              filters: run.filters,
              ...(run.hyde ? { hyde: run.hyde } : {}),
              ...(run.signal ? { signal: run.signal } : {}),
            });
            run.context = await buildContext(
              this.deps.chunks,
              this.deps.config,
              input.workspaceId,
              run.retrieval,
              run.logger,
            );
            run.sources = contextSources(run.context);
            if (run.plan!.intent === 'endpoint') {
              run.sources.push(...(await requestExamples(this.deps.chunks, input.workspaceId, run.sources)));
            }
            run.warnings.push(...run.retrieval.stats.warnings);
            if (run.context.stats.partial)
              run.warnings.push('reference expansion timed out: the context is partial');
          },
          () => retrievalAttributes(run),
        );
        return 'quarantine';
      case 'quarantine':
        // Before anything reads the sources (evidence, tools, synthesis, a model), the units that
        // speak to the model are cut out; the rest of each source stays usable.
        await timeStage(
          run,
          'quarantine',
          async () => {
            run.sources = await this.quarantine(run, run.sources);
          },
          () => ({ 'rag.quarantine.units': run.quarantined.length }),
        );
        return run.plan!.tools.length > 0 ? 'tools' : this.afterEvidence(run);
      case 'tools':
        await timeStage(
          run,
          'tools',
          async () => {
            for (const request of run.plan!.tools) {
              // Tools that read the knowledge base read this run's workspace, never another.
              const toolInput =
                request.name === 'lookup'
                  ? { ...request.input, workspaceId: input.workspaceId }
                  : request.input;
              const call = await this.deps.tools!.call(
                request.name,
                toolInput,
                run.signal ? { signal: run.signal } : {},
              );
              run.toolCalls.push({
                name: call.name,
                input: call.input,
                ok: call.ok,
                output: call.result?.output ?? null,
                error: call.error ?? null,
                ms: call.ms,
              });
              const definition = call.ok
                ? (call.result.data as Partial<LookupResult> | undefined)?.definition
                : null;
              if (definition && !run.sources.some((source) => source.chunkId === definition.chunkId)) {
                run.sources.unshift(
                  ...(await this.quarantine(run, [{ ...definition, score: 1, rank: 0, origin: 'primary' }])),
                );
              }
              if (call.ok && call.result?.found === false) run.missing.push(call.result.output);
              else if (call.ok && call.result) {
                // A tool's output (a fetched page) is data like any document.
                const [output] = await this.quarantine(run, [
                  {
                    sourceId: `tool:${call.name}`,
                    chunkId: `tool:${call.name}#${run.toolCalls.length}`,
                    title: call.result.sources?.[0]?.title ?? `${call.name} tool`,
                    url: call.result.sources?.[0]?.url ?? null,
                    text: call.result.output,
                    startOffset: 0,
                    endOffset: call.result.output.length,
                    score: 1,
                    rank: -1,
                    origin: 'tool',
                  },
                ]);
                if (output) run.sources.unshift(output);
              }
            }
          },
          () => ({
            'rag.tools.calls': run.toolCalls.length,
            'rag.tools.failed': run.toolCalls.filter((call) => !call.ok).length,
          }),
        );
        return this.afterEvidence(run);
      case 'synthesize':
        run.synthesis = await timeStage(
          run,
          'synthesize',
          async () => {
            if (!this.deps.llm) return this.extractive(run);
            try {
              const answer = await llmAnswer(this.deps.llm, input.query, run.sources, run.signal);
              run.method = 'llm';
              return answer;
            } catch (error) {
              const ragError = toRagError(error);
              if (ragError.code === ErrorCode.ABORTED) throw ragError;
              run.warnings.push(`LLM unavailable (${ragError.code}); answered extractively`);
              return this.extractive(run);
            }
          },
          (result) => ({ 'rag.synthesis.method': run.method, 'rag.citations': result.cited.length }),
        );
        // The passages retrieved do not address the question's focus: "not found", not a guess.
        if (run.synthesis.notAddressed) {
          run.warnings.push(`no passage addresses the question: ${run.synthesis.notAddressed}`);
          return 'refuse';
        }
        return 'done';
      case 'refuse':
        run.synthesis = await timeStage(
          run,
          'refuse',
          async () => refusal(run.sources),
          (result) => ({ 'rag.citations': result.cited.length }),
        );
        run.refused = true;
        run.method = 'refusal';
        return 'done';
      default:
        throw new RagError(ErrorCode.INTERNAL, `no stage ${state as string}`);
    }
  }

  /**
   * A conversation's follow-up made to stand alone: from here on the run answers the standalone
   * question (evidence, refusal rules and synthesis read it), planned again from its own words.
   */
  private async standalone(run: Run): Promise<void> {
    const { input } = run;
    run.followUp = await resolveFollowUp(input.query, input.history, {
      llm: this.deps.llm,
      signal: run.signal,
      warnings: run.warnings,
    });
    if (!run.followUp.rewritten) return;
    run.logger.info('follow-up rewritten', {
      event: 'follow-up-rewritten',
      rewriter: run.followUp.rewriter,
      turns: input.history.length,
    });
    input.query = run.followUp.standaloneQuery;
  }

  /** The answer quoted from the sources, with what the plan and retrieval know of the question. */
  private extractive(run: Run) {
    return extractiveAnswer(run.rewrite!.query, run.sources, {
      intent: run.plan!.intent,
      entity: run.plan!.entity,
      apiSubject: run.apiSubject === true,
      sameOperations: run.retrieval ? sameOperations(run.retrieval.hits) : [],
    });
  }

  /** Synthesis when something covers the question well enough, a refusal otherwise. */
  private afterEvidence(run: Run): StageName {
    // The question is about one numbered entity and the graph has no such entity: whatever else
    // retrieval found is about something else.
    // A tool that answered (a lookup that found its entity, a calculation) is evidence enough:
    // neither refusal rule below may override it.
    const toolAnswered = run.sources.some((source) => source.origin === 'tool');
    if (!toolAnswered && run.plan!.intent === 'entity' && run.missing.length > 0) {
      run.warnings.push(...run.missing);
      return 'refuse';
    }
    const names = toolAnswered
      ? []
      : [
          ...new Set([
            ...(run.understanding?.unknownNames ?? []),
            ...unknownNames(run.input.query, run.retrieval?.stats.unknownTerms ?? []),
          ]),
        ];
    if (names.length > 0) {
      run.warnings.push(`the question names ${names.join(', ')}, which the knowledge base never mentions`);
      return 'refuse';
    }
    // An API question whose first operation acts on the very thing the question names is answered
    // by it, though its text may use the spec's words, not the question's ("favorite a project"
    // is `POST /projects/{id}/star`): the operation ranking is the evidence.
    if (run.plan!.intent === 'endpoint' && operationAnswers(run)) return 'synthesize';
    const unfamiliar = toolAnswered
      ? []
      : unknownFocus(run.input.query, run.retrieval?.stats.unknownTerms ?? []);
    if (unfamiliar.length > 0) {
      run.warnings.push(
        `the question is about ${unfamiliar.join(', ')}, which the knowledge base never mentions`,
      );
      return 'refuse';
    }
    const found = evidence(run.input.query, run.sources, run.rewrite!.corrections);
    if (found.score >= this.deps.config.AGENTIC_RAG_MIN_EVIDENCE) return 'synthesize';
    run.warnings.push(
      `no source covers the question: the best covers ${Math.round(found.score * 100)}% of its words (AGENTIC_RAG_MIN_EVIDENCE ${this.deps.config.AGENTIC_RAG_MIN_EVIDENCE})`,
    );
    return 'refuse';
  }

  private async corpusVersion(workspaceId: string): Promise<number> {
    const version = await this.deps.chunks.corpusVersion(workspaceId);
    if (version === null)
      throw new RagError(ErrorCode.WORKSPACE_NOT_FOUND, `workspace "${workspaceId}" does not exist`);
    return version;
  }

  private async cacheGet(key: Parameters<AnswerCache['get']>[0], logger: Logger): Promise<RagAnswer | null> {
    if (!this.deps.cache) return null;
    try {
      const hit = await this.deps.cache.get<RagAnswer>(key);
      cacheLookups.inc({ cache: 'answer', result: hit ? 'hit' : 'miss' });
      return hit;
    } catch (error) {
      cacheLookups.inc({ cache: 'answer', result: 'error' });
      logger.warn('answer cache read failed', { event: 'cache-read-failed', error: toRagError(error) });
      return null;
    }
  }

  private async cacheSet(
    key: Parameters<AnswerCache['get']>[0],
    answer: RagAnswer,
    logger: Logger,
  ): Promise<void> {
    if (!this.deps.cache) return;
    try {
      await this.deps.cache.set(key, answer, this.deps.config.AGENTIC_RAG_REDIS_TTL_SECONDS);
    } catch (error) {
      logger.warn('answer cache write failed', {
        event: 'cache-write-failed',
        error: toRagError(error),
      });
    }
  }
}

/**
 * An API question whose first operation acts on the very thing the question names and covers all
 * of what its verb acts on is answered by that operation, though its text may use the spec's words,
 * not the question's, or does it by its own action segment ("favorite a project" is
 * `POST /projects/{id}/star`): the operation ranking is the evidence. "Schedule a carrier pickup" is
 * not covered by an operation that only knows carriers.
 */
function operationAnswers(run: Run): boolean {
  const hit = run.retrieval?.hits[0];
  const search = run.understanding?.operationSearch;
  if (!hit?.operation || !search || (hit.operation.factors.target ?? 0) <= 1) return false;
  // Its own action segment named by the question's verb (or the verb's family) is evidence too.
  if ((hit.operation.factors.action ?? 0) >= VERB_NAMED) return true;
  const operation = search.index.operations.find((candidate) => candidate.sourcePath === hit.sourcePath);
  const { action, expansions } = run.understanding!;
  const head = action.object.at(-1);
  const alternatives = expansions.filter((entry) => entry.word === head).map((entry) => entry.expansion);
  return operation !== undefined && coversObject(search.index, operation, action.object, alternatives);
}

/** The action factor of an operation whose own action segment the question's verb names. */
const VERB_NAMED = 1.5;

/** How much of a chunk's document on either side is read with it for the quarantine: a long sentence. */
const SURROUNDING_CHARS = 300;
