import type { Sql } from '../db/index.js';
import { vectorLiteral, type LexicalSegmentCache } from '../store/index.js';
import { filterConditions, type RetrievalFilters } from './filters.js';
import { expandQuery } from './feedback.js';
import type { LexicalTerm as QueryTerm } from '../understand/index.js';
import { searchSegments } from './lexical/segment-search.js';

/** One channel's candidates, best first; scores are the channel's own (cosine, BM25). */
export interface ChannelResult {
  ids: number[];
  scores: number[];
  ms: number;
}

export interface DenseOptions {
  workspaceId: string;
  vector: readonly number[];
  model: string;
  limit: number;
  efSearch: number;
  filters: RetrievalFilters;
}

/**
 * Dense channel: cosine similarity over the HNSW index. pgvector 0.8's iterative scan keeps
 * walking the graph until `limit` rows pass the workspace and filter conditions, so a filtered
 * or multi-workspace query still returns k rows; relaxed order is re-sorted by distance outside.
 */
export async function denseChannel(sql: Sql, options: DenseOptions): Promise<ChannelResult> {
  const started = performance.now();
  const filters = filterConditions(options.filters, 5);
  const rows = await sql.transaction(async (tx) => {
    await tx.query(
      "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
      [String(Math.max(options.efSearch, options.limit))],
    );
    const result = await tx.query<{ id: number; score: number }>(
      `WITH nearest AS MATERIALIZED (
         SELECT c.id, c.embedding <=> $2::vector AS distance
         FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
         WHERE c.workspace_id = $1 AND c.embedding_model = $3${filters.sql}
         ORDER BY c.embedding <=> $2::vector
         LIMIT $4
       )
       SELECT id, 1 - distance AS score FROM nearest ORDER BY distance, id`,
      [options.workspaceId, vectorLiteral(options.vector), options.model, options.limit, ...filters.params],
    );
    return result.rows;
  });
  return {
    ids: rows.map((row) => row.id),
    scores: rows.map((row) => row.score),
    ms: performance.now() - started,
  };
}

export interface Bm25Options {
  workspaceId: string;
  terms: readonly QueryTerm[];
  documentFrequency: ReadonlyMap<string, number>;
  limit: number;
  k1: number;
  b: number;
  /**
   * BM25F field weights: a posting's term frequency is body + heading · its heading-trail count +
   * title · its document-title count. { heading: 1, title: 0 } scores as plain BM25 did.
   */
  fields: { heading: number; title: number };
  filters: RetrievalFilters;
  /** The process's decoded lexical segments (store/lexical-segments), the index searched. */
  segments: LexicalSegmentCache;
}

export interface Bm25Statistics {
  /** Chunks in the workspace. */
  n: number;
  /** Average chunk length in lexemes. */
  averageLength: number;
}

/**
 * Okapi BM25 with Lucene's idf, ln(1 + (N - df + 0.5) / (df + 0.5)), so a term in every chunk
 * still scores a little and never negatively:
 *   score(q, c) = Σ_t qtf(t) · idf(t) · tf(t,c)·(k1 + 1) / (tf(t,c) + k1·(1 − b + b·|c| / avg|c|))
 * tf is BM25F's weighted sum over the chunk's fields (body, heading trail, document title), so a
 * word of the title counts more than one in passing, and saturates with the rest. Term frequencies
 * and lengths come from the workspace's lexical segments, scored in process (see
 * lexical/segment-search.ts), N and Σ|c| from the maintained statistics read with them. A filtered
 * search scores only the chunks the filters allow, read once per corpus version and filter.
 */
export async function bm25Channel(sql: Sql, options: Bm25Options): Promise<ChannelResult & Bm25Statistics> {
  const started = performance.now();
  const cache = options.segments;
  const view = await cache.open(sql, options.workspaceId);
  const narrowing = filterConditions(options.filters, 2);
  const allowed = narrowing.sql
    ? await cache.subset(view, options.workspaceId, JSON.stringify(options.filters), async () =>
        (
          await sql.query<{ id: number }>(
            `SELECT c.id FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
             WHERE c.workspace_id = $1${narrowing.sql}`,
            [options.workspaceId, ...narrowing.params],
          )
        ).rows.map((row) => Number(row.id)),
      )
    : undefined;
  const n = view.chunkCount;
  const averageLength = n > 0 ? view.lexemeTotal / n : 0;
  const weighted = options.terms.filter((term) => (options.documentFrequency.get(term.lexeme) ?? 0) > 0);
  const rows =
    n === 0 || weighted.length === 0
      ? []
      : searchSegments(
          view,
          {
            lexemes: weighted.map((term) => term.lexeme),
            weights: weighted.map(
              (term) => term.count * bm25Idf(n, options.documentFrequency.get(term.lexeme)!),
            ),
            k1: options.k1,
            b: options.b,
            averageLength,
            limit: options.limit,
            fields: options.fields,
          },
          allowed,
        );
  return {
    ids: rows.map((row) => row.id),
    scores: rows.map((row) => row.score),
    ms: performance.now() - started,
    n,
    averageLength,
  };
}

export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface LexicalOptions extends Bm25Options {
  /** RM3 feedback (see feedback.ts): chunks learned from, terms added, their share; weight 0 = off. */
  feedback: { documents: number; terms: number; weight: number };
}

/**
 * The lexical channel: BM25, then with feedback on a second pass for the query expanded by RM3
 * from the first pass's best chunks. Too few first-pass hits to learn from: the first pass stands.
 */
export async function lexicalChannel(sql: Sql, options: LexicalOptions): Promise<ChannelResult> {
  const { feedback, ...bm25 } = options;
  const first = await bm25Channel(sql, bm25);
  if (feedback.weight <= 0 || first.ids.length < feedback.documents) return first;
  const expansion = await expandQuery(sql, {
    workspaceId: options.workspaceId,
    ids: first.ids,
    scores: first.scores,
    terms: options.terms,
    documents: feedback.documents,
    expansionTerms: feedback.terms,
    weight: feedback.weight,
    chunkCount: first.n,
  });
  if (expansion.added.size === 0) return first;
  const second = await bm25Channel(sql, {
    ...bm25,
    terms: expansion.terms,
    documentFrequency: new Map([...options.documentFrequency, ...expansion.added]),
  });
  return { ...second, ms: first.ms + second.ms };
}
