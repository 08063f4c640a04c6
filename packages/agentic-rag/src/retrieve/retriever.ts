import type { Sql } from '../db/index.js';
import type { Embedder } from '../embed/index.js';
import { candidateEntityIds, type GraphStore } from '../graph/index.js';
import { ErrorCode, toRagError } from '../errors/index.js';
import { ChunkReader, LexicalSegmentCache } from '../store/index.js';
import { retrievalScore, silentLogger, type Logger } from '../telemetry/index.js';
import { denseChannel, lexicalChannel, type ChannelResult } from './channels.js';
import type { RetrievalFilters } from './filters.js';
import { graphChannel } from './graph-channel.js';
import { fuse } from './fusion.js';
import { understand, type Understanding, type UnderstoodIntent } from '../understand/index.js';
import { interleave } from './interleave.js';
import type {
  RetrievalChannel,
  RetrievalHit,
  RetrievalResult,
  RetrieveOptions,
  RetrieverSettings,
  Searched,
  SharedWork,
  StageTiming,
} from './types.js';
import { narrowings } from './narrowings.js';
import { operationSearch } from './operation-search.js';
import { maximalMarginalRelevance } from './rerank/mmr.js';
import type { Reranker } from './rerank/reranker.js';

export const MAX_QUERY_LENGTH = 2000;

/** Stemmed words that ask for an API operation as such: endpoint(s), API, operation(s), route(s), call(s). */
const OPERATION_KIND_LEXEMES: ReadonlySet<string> = new Set(['endpoint', 'api', 'oper', 'rout', 'call']);
/** The same words as the reranker reads them, unstemmed. */
const OPERATION_KIND_WORDS = /\b(endpoints?|apis?|operations?|routes?|calls?)\b/gi;
export const MAX_K = 100;
/** Operations an API question's chunk search returns for the operation ranking to fuse with. */
const OPERATION_CANDIDATES = 50;

/**
 * Each returned hit's raw score per channel goes into the score histogram: the distribution a
 * drifting embedder or a changed corpus moves. Only returned hits count, so the narrowing
 * attempts that were discarded do not.
 */
function observed(result: RetrievalResult): RetrievalResult {
  for (const hit of result.hits) {
    for (const [channel, score] of Object.entries(hit.channels)) {
      if (score) retrievalScore.observe({ channel }, score.score);
    }
  }
  return result;
}

/**
 * Hybrid retrieval: the question understood once (see understand/) → dense and BM25 channels in
 * parallel → fusion → rerank of the top candidates → optional MMR → top k. An API question ranks
 * the workspace's operations instead, one result per operation (see operation-search.ts). Every
 * hit says why it is there. A failing reranker degrades to the fused order with a warning.
 */
export class HybridRetriever {
  private readonly logger: Logger;
  /** Decoded lexical segments, shared by every search of this retriever (see store/lexical-segments). */
  private readonly lexicalSegments = new LexicalSegmentCache();
  private readonly chunks: ChunkReader;

  constructor(
    private readonly sql: Sql,
    private readonly embedder: Embedder,
    private readonly settings: RetrieverSettings,
    private readonly reranker: Reranker | null,
    logger?: Logger,
    private readonly graph: GraphStore | null = null,
  ) {
    this.logger = logger ?? silentLogger;
    this.chunks = new ChunkReader(sql);
  }

  /**
   * The question understood: corrections, expansions, action, shape, intent with its confidence
   * and the workspace's operations ranked for it. ragAnswer's plan asks for it once and hands it
   * back with `retrieve`; a plain search has it made here.
   */
  async understand(
    workspaceId: string,
    query: string,
    options: { intent?: boolean; signal?: AbortSignal; corpusVersion?: number } = {},
  ): Promise<Understanding> {
    // The query, the workspace, k and the filters were checked once, by the service (its
    // SearchInput and AnswerInput); internal callers (HyDE, endpoints, evaluation) pass their own.
    const text = query.trim();
    const graph = this.graph;
    return understand(this.sql, workspaceId, text, {
      typoSimilarity: this.settings.typoSimilarity,
      synonymWeight: this.settings.synonymWeight ?? 0,
      intent: options.intent ?? this.settings.queryAnalysis ?? true,
      lexicalIndex: () => this.lexicalSegments.open(this.sql, workspaceId),
      ...(options.corpusVersion !== undefined ? { corpusVersion: options.corpusVersion } : {}),
      ...(graph
        ? {
            declaredAcronyms: async (searchText: string) =>
              (
                await graph.getEntities({
                  workspaceId,
                  ids: candidateEntityIds(searchText),
                  signal: options.signal,
                })
              )
                .filter((entity) => entity.type === 'Acronym')
                .flatMap((entity) => {
                  const expansion = entity.aliases.find((alias) => alias.includes(' '));
                  return expansion ? [{ term: entity.name, expansion }] : [];
                }),
          }
        : {}),
    });
  }

  /**
   * An API question (the understanding's intent, sure enough) ranks operations, one result each,
   * before the prose; a question for a shape or an error tries its narrowing (schemas, error
   * sets) and takes it when it finds at least min(3, k) hits, interleaved with a search under the
   * caller's filters alone, so the best prose (the runbook, a chapter) is never pushed out of the
   * list. Anything else: the plain search.
   */
  async retrieve(options: RetrieveOptions): Promise<RetrievalResult> {
    const filters: RetrievalFilters = options.filters ?? {};
    const k = options.k ?? 10;
    const analyse = options.intent ?? this.settings.queryAnalysis ?? true;
    const started = performance.now();
    const understanding =
      options.understanding ??
      (await this.understand(options.workspaceId, options.query, {
        intent: analyse,
        signal: options.signal,
        ...(options.corpusVersion !== undefined ? { corpusVersion: options.corpusVersion } : {}),
      }));
    // Understanding the question is retrieval's first stage when it was not done before (a plain
    // search); ragAnswer's plan stage times its own.
    const analysis: StageTiming[] = options.understanding
      ? []
      : [{ name: 'analyze', ms: Number((performance.now() - started).toFixed(2)) }];
    const intent: UnderstoodIntent = analyse
      ? understanding.intent
      : { kind: 'general', confidence: 1, reasons: ['query analysis is off'], source: 'none' };
    const shared: SharedWork = {};
    const search = (narrowed: RetrievalFilters, size = k) =>
      this.search({ ...options, k: size, filters: narrowed }, understanding, shared);
    const done = (searched: Searched, narrowedTo: RetrievalFilters | null): RetrievalResult =>
      observed({
        ...searched,
        stats: { ...searched.stats, stages: [...analysis, ...searched.stats.stages] },
        intent: { ...intent, narrowedTo },
        expansions: understanding.expansions,
      });
    if (
      intent.kind === 'endpoint' &&
      understanding.operations.length > 0 &&
      filters.chunk_type === undefined
    ) {
      const narrowed = { ...filters, chunk_type: 'endpoint' };
      const result = await operationSearch({
        sql: this.sql,
        workspaceId: options.workspaceId,
        understanding,
        filters,
        k,
        focused: () => search(narrowed, Math.min(MAX_K, Math.max(k, OPERATION_CANDIDATES))),
        broad: () => search(filters),
        hydrate: (ids) => this.hydrate(ids),
      });
      if (result) return done(result, narrowed);
    }
    // Started at once: every narrowed answer is blended with it, and the fallback is it.
    const broad = search(filters);
    broad.catch(() => undefined);
    const enough = Math.min(3, k);
    for (const narrowed of narrowings(intent, filters)) {
      const focused = await search(narrowed);
      if (focused.hits.length >= enough) return done(interleave(focused, await broad, k), narrowed);
    }
    return done(await broad, null);
  }

  private async search(
    options: RetrieveOptions,
    understanding: Understanding,
    shared: SharedWork,
  ): Promise<Searched> {
    const query = understanding.query;
    const k = options.k ?? 10;
    const filters: RetrievalFilters = options.filters ?? {};
    const channels = new Set<RetrievalChannel>(options.channels ?? ['vector', 'lexical', 'graph']);
    if (!this.graph || this.settings.graphHops === 0) channels.delete('graph');
    const candidates = Math.min(1000, Math.max(options.candidates ?? this.settings.candidates, k));
    const stages: StageTiming[] = [];
    const warnings: string[] = [];
    const time = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        stages.push({ name, ms: Number((performance.now() - started).toFixed(2)) });
      }
    };

    const { correctedQuery, corrections, searchText } = understanding;
    // Searching API operations only, the words that name the kind of answer ("which endpoint",
    // "what API call") say nothing about which operation: they would only favour an operation that
    // happens to say "endpoint" (registering a webhook endpoint) over the one asked about.
    const kindWords = filters.chunk_type === 'endpoint' ? OPERATION_KIND_LEXEMES : new Set<string>();
    // An expansion's weight scales its query-term count: BM25 sums qtf · idf · tf-part.
    const terms = understanding.lexical.terms
      .filter((term) => !kindWords.has(term.lexeme))
      .map((term) => ({ lexeme: term.lexeme, count: term.count * (term.weight ?? 1) }));
    const analysis = understanding.lexical;

    const empty: ChannelResult = { ids: [], scores: [], ms: 0 };
    const [dense, lexical] = await Promise.all([
      channels.has('vector')
        ? time('dense', async () => {
            const hyde = options.hyde?.trim();
            shared.embeddings ??= this.embedder
              .embed({
                texts: hyde ? [searchText, hyde] : [searchText],
                purpose: 'query',
                ...(options.signal ? { signal: options.signal } : {}),
              })
              .then((result) => result.embeddings);
            const embeddings = await shared.embeddings;
            const results = await Promise.all(
              embeddings.map((vector) =>
                denseChannel(this.sql, {
                  workspaceId: options.workspaceId,
                  vector,
                  model: this.embedder.modelId,
                  limit: candidates,
                  efSearch: this.settings.efSearch,
                  filters,
                }),
              ),
            );
            return results.length === 1 ? results[0]! : bestOf(results, candidates);
          })
        : empty,
      channels.has('lexical')
        ? time('lexical', () =>
            lexicalChannel(this.sql, {
              workspaceId: options.workspaceId,
              terms,
              documentFrequency: analysis.documentFrequency,
              limit: candidates,
              ...this.settings.bm25,
              filters,
              segments: this.lexicalSegments,
              // A weight of 0 turns feedback off whatever the caller asks.
              feedback:
                options.feedback === false
                  ? { ...this.settings.feedback, weight: 0 }
                  : this.settings.feedback,
            }),
          )
        : empty,
    ]);

    // The graph channel starts from what the question names and from the entities of the other
    // channels' best hits, so it runs after them.
    const graph = channels.has('graph')
      ? await time('graph', async () =>
          graphChannel(this.sql, this.graph!, {
            workspaceId: options.workspaceId,
            query: searchText,
            seedChunks: await this.chunks.chunkIds([...dense.ids.slice(0, 3), ...lexical.ids.slice(0, 3)]),
            hops: this.settings.graphHops,
            limit: candidates,
            filters,
            signal: options.signal,
          }),
        )
      : null;

    const fusion = fuse(
      [
        { name: 'vector', ids: dense.ids, scores: dense.scores, weight: this.settings.weights.vector },
        { name: 'lexical', ids: lexical.ids, scores: lexical.scores, weight: this.settings.weights.lexical },
        ...(graph
          ? [
              {
                name: 'graph' as const,
                ids: graph.ids,
                scores: graph.scores,
                weight: this.settings.weights.graph,
              },
            ]
          : []),
      ],
      { method: options.fusion ?? this.settings.fusion, normalization: this.settings.normalization },
    );
    const rerankOn = (options.rerank ?? true) && this.reranker !== null;
    const pool = fusion.candidates.slice(0, rerankOn ? Math.max(k, this.settings.candidates) : k);
    const rows = await time('hydrate', () => this.hydrate(pool.map((candidate) => candidate.id)));
    let hits: RetrievalHit[] = pool.flatMap((candidate) => {
      const row = rows.get(candidate.id);
      const via = graph?.via.get(candidate.id);
      return row
        ? [
            {
              ...row,
              score: candidate.score,
              fusedScore: candidate.score,
              channels: candidate.channels,
              ...(via ? { graphEntities: via.slice(0, 5) } : {}),
            },
          ]
        : [];
    });

    if (rerankOn && hits.length > 1) {
      try {
        const reranked = await time('rerank', () =>
          this.reranker!.rerank({
            query: kindWords.size > 0 ? searchText.replace(OPERATION_KIND_WORDS, ' ') : searchText,
            candidates: hits.map((hit) => ({
              id: hit.id,
              text: hit.text,
              title: hit.title,
              sectionPath: hit.sectionPath,
              fusedScore: hit.fusedScore,
            })),
            ...(options.signal ? { signal: options.signal } : {}),
          }),
        );
        hits = hits
          .map((hit, index) => ({
            ...hit,
            score: reranked.scores[index]!,
            rerank: {
              score: reranked.scores[index]!,
              ...(reranked.features ? { features: reranked.features[index]! } : {}),
            },
          }))
          .sort(
            (left, right) =>
              right.score - left.score || right.fusedScore - left.fusedScore || left.id - right.id,
          );
      } catch (error) {
        const ragError = toRagError(error);
        if (ragError.code === ErrorCode.ABORTED) throw ragError;
        warnings.push(
          `reranker ${this.reranker!.name} failed (${ragError.code}); results are in fused order`,
        );
        this.logger.warn('rerank failed', { event: 'rerank-failed', error: ragError });
      }
    }
    if (this.settings.mmrLambda < 1 && hits.length > k) {
      const picked = maximalMarginalRelevance(
        hits.map((hit) => hit.text),
        hits.map((hit) => hit.score),
        k,
        this.settings.mmrLambda,
      );
      hits = picked.map((index) => hits[index]!);
    }

    return {
      query,
      correctedQuery,
      corrections,
      filters,
      hits: hits.slice(0, k),
      stats: {
        stages,
        candidates: { vector: dense.ids.length, lexical: lexical.ids.length, graph: graph?.ids.length ?? 0 },
        reranker: rerankOn ? this.reranker!.name : null,
        warnings,
        fusion: { method: options.fusion ?? this.settings.fusion, weights: fusion.weights },
        queryEntities: graph?.queryEntities ?? [],
        unknownTerms: understanding.unknownTerms,
      },
    };
  }

  /** The display fields of chunks by row id (a search's hits before they are scored). */
  async hydrate(
    ids: readonly number[],
  ): Promise<Map<number, Omit<RetrievalHit, 'score' | 'fusedScore' | 'channels'>>> {
    const found = await this.chunks.byIds(ids);
    // A hit carries no chunk index: its place is its rank.
    return new Map([...found].map(([id, { chunkIndex, ...hit }]) => [id, hit]));
  }
}

/** Several dense queries as one channel: each chunk's best cosine, best first. */
function bestOf(results: ChannelResult[], limit: number): ChannelResult {
  const best = new Map<number, number>();
  for (const result of results) {
    result.ids.forEach((id, index) => {
      const score = result.scores[index]!;
      if (score > (best.get(id) ?? -Infinity)) best.set(id, score);
    });
  }
  const ranked = [...best.entries()]
    .sort((left, right) => right[1] - left[1] || left[0] - right[0])
    .slice(0, limit);
  return {
    ids: ranked.map(([id]) => id),
    scores: ranked.map(([, score]) => score),
    ms: Math.max(...results.map((result) => result.ms)),
  };
}
