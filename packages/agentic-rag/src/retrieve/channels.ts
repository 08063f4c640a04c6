import { loadSqlFile, type Sql } from '../db/index.js';
import { vectorLiteral, type LexicalSegmentCache } from '../store/index.js';
import { filterConditions, type RetrievalFilters } from './filters.js';
import { expandQuery } from './feedback.js';
import type { LexicalTerm as QueryTerm } from '../understand/index.js';
import { blockMaxApplies, blockMaxBm25 } from './lexical/block-max.js';
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

const BM25_MAXSCORE = loadSqlFile(new URL('./sql/bm25-maxscore.sql', import.meta.url));

const BM25_WORK_MEM = '64MB';

/** BM25F's term frequency of a posting: its fields' counts weighted by $8 (heading) and $9 (title). */
const FIELD_TF = '(p.tf + $8::float8 * p.tf_heading + $9::float8 * p.tf_title)';

/**
 * Scores are rounded to this grid (1e-9) before ranking: the same chunk summed over its terms in
 * another order differs in the last bits, and every strategy must break ties by id the same way.
 */
const SCORE_GRID = '1e9::float8';

/** Terms in more than this share of the workspace's chunks are "common" for MaxScore pruning. */
const COMMON_TERM_SHARE = 0.05;

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
  /**
   * Pruning (default on): block-max over the summarised ranges of chunk ids when the workspace has
   * any (see lexical/summaries.ts), falling back to the full scan when the bounds are too loose;
   * MaxScore when it has none. Every answer is exact.
   */
  pruning?: boolean;
  /**
   * The process's decoded lexical segments: when given, a workspace whose chunks are all in
   * segments is scored in process (strategy 'segments') unless filters need the chunk rows.
   */
  segments?: LexicalSegmentCache;
}

export type Bm25Strategy = 'segments' | 'blockmax' | 'maxscore' | 'full';

export interface Bm25Statistics {
  /**
   * Which answered, exactly each: the in-process segments, block-max pruning over the postings
   * table, MaxScore pruning, or the full scan.
   */
  strategy: Bm25Strategy;
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
 * come from the postings, lengths and N from the maintained statistics.
 */
export async function bm25Channel(sql: Sql, options: Bm25Options): Promise<ChannelResult & Bm25Statistics> {
  const started = performance.now();
  if (options.segments) {
    const answered = await fromSegments(sql, options, options.segments, started);
    if (answered) return answered;
  }
  const statistics = await sql.query<{
    chunk_count: number;
    lexeme_total: number;
    range_size: number | null;
    summarised_below: number | null;
  }>(
    `SELECT w.chunk_count, w.lexeme_total, m.range_size, m.summarised_below
     FROM rag_workspaces w LEFT JOIN rag_lexical_watermarks m ON m.workspace_id = w.id
     WHERE w.id = $1`,
    [options.workspaceId],
  );
  const n = statistics.rows[0]?.chunk_count ?? 0;
  const averageLength = n > 0 ? statistics.rows[0]!.lexeme_total / n : 0;
  const watermark = {
    rangeSize: statistics.rows[0]?.range_size ?? 1,
    summarisedBelow: Number(statistics.rows[0]?.summarised_below ?? 0),
  };
  const weighted = options.terms.filter((term) => (options.documentFrequency.get(term.lexeme) ?? 0) > 0);
  if (n === 0 || weighted.length === 0) {
    return { ids: [], scores: [], ms: performance.now() - started, n, averageLength, strategy: 'full' };
  }

  const lexemes = weighted.map((term) => term.lexeme);
  const weights = weighted.map(
    (term) => term.count * bm25Idf(n, options.documentFrequency.get(term.lexeme)!),
  );
  const filters = filterConditions(options.filters, 10);
  const done = (rows: Array<{ id: number; score: number }>, strategy: Bm25Strategy) => ({
    ids: rows.map((row) => row.id),
    scores: rows.map((row) => row.score),
    ms: performance.now() - started,
    n,
    averageLength,
    strategy,
  });

  // $1..$9, shared by both statements: workspace, lexemes, weights, k1, b, average length, limit,
  // heading and title field weights.
  const scoring = [
    options.workspaceId,
    lexemes,
    weights,
    options.k1,
    options.b,
    averageLength,
    options.limit,
    options.fields.heading,
    options.fields.title,
  ];

  const pruning = (options.pruning ?? true) && !filters.sql;
  if (pruning && blockMaxApplies({ ...options, watermark })) {
    const blockMax = await blockMaxBm25(sql, {
      workspaceId: options.workspaceId,
      lexemes,
      weights,
      k1: options.k1,
      b: options.b,
      averageLength,
      limit: options.limit,
      fields: options.fields,
      watermark,
    });
    if (blockMax.complete) return done(blockMax.rows, 'blockmax');
    // Bounds too loose to prune by ranges: then MaxScore's per-term bounds rarely prune either,
    // and its rounds only add to the full scan that follows (measured at 100k chunks: the full scan
    // alone had the lower p95 on real text and on the Zipf corpus).
  }

  if (pruning && !blockMaxApplies({ ...options, watermark })) {
    const frequencies = weighted.map((term) => options.documentFrequency.get(term.lexeme)!);
    const rarest = Math.min(...frequencies);
    let essential = frequencies.map((df) => df <= n * COMMON_TERM_SHARE || df === rarest);
    let known = 0;
    // Two rounds at most: the first split is by document frequency; if it cannot prove its top
    // k exact, its k-th score is still a real score, so a lower bound of the true k-th score,
    // and the second round makes non-essential only terms that together stay below it.
    for (let round = 0; round < 2 && essential.includes(false); round++) {
      const bound = commonBound(weights, essential, options.k1);
      const pruned = await runBm25(sql, BM25_MAXSCORE, [...scoring, bound, essential, known]);
      const kth = pruned.length === options.limit ? pruned[options.limit - 1]!.score : null;
      // Exact when even the last kept chunk beats anything a chunk without an essential term could score.
      if (kth !== null && kth > bound) return done(pruned, 'maxscore');
      if (kth === null) break;
      essential = splitBelow(weights, options.k1, kth);
      known = kth;
    }
  }

  // Postings carry the chunk length, so an unfiltered query reads the postings of its terms and
  // nothing else; filters join the chunk and its document.
  const rows = await runBm25(
    sql,
    `SELECT p.chunk_id AS id,
            round(sum(q.weight * ${FIELD_TF} * ($4::float8 + 1)
                      / (${FIELD_TF} + $4::float8 * (1 - $5::float8 + $5::float8 * p.chunk_length / $6::float8))) * ${SCORE_GRID})
              / ${SCORE_GRID} AS score
     FROM unnest($2::text[], $3::float8[]) AS q(lexeme, weight)
     JOIN rag_chunk_terms p ON p.workspace_id = $1 AND p.lexeme = q.lexeme
     ${filters.sql ? 'JOIN rag_chunks c ON c.id = p.chunk_id JOIN rag_documents d ON d.id = c.document_id' : ''}
     WHERE ${FIELD_TF} > 0${filters.sql}
     GROUP BY p.chunk_id
     ORDER BY score DESC, id
     LIMIT $7`,
    [...scoring, ...filters.params],
  );
  return done(rows, 'full');
}

/**
 * BM25 from the workspace's lexical segments, scored in process (see lexical/segment-search.ts);
 * null while the workspace's chunks are not all in segments. A filtered search scores only the
 * chunks the filters allow, read once per corpus version and filter.
 */
async function fromSegments(
  sql: Sql,
  options: Bm25Options,
  cache: LexicalSegmentCache,
  started: number,
): Promise<(ChannelResult & Bm25Statistics) | null> {
  const view = await cache.open(sql, options.workspaceId);
  if (!view.complete) return null;
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
    strategy: 'segments',
  };
}

/** A term adds at most weight·(k1 + 1) to any chunk (its tf fraction is below 1). */
function commonBound(weights: readonly number[], essential: readonly boolean[], k1: number): number {
  return weights.reduce((sum, weight, index) => (essential[index] ? sum : sum + weight * (k1 + 1)), 0);
}

/** Essential flags: the terms with the smallest upper bounds are non-essential while their sum stays below `threshold`. */
function splitBelow(weights: readonly number[], k1: number, threshold: number): boolean[] {
  const essential = weights.map(() => true);
  let sum = 0;
  for (const index of weights
    .map((_, position) => position)
    .sort((left, right) => weights[left]! - weights[right]!)) {
    sum += weights[index]! * (k1 + 1);
    if (sum >= threshold) break;
    essential[index] = false;
  }
  return essential;
}

/**
 * BM25 statements aggregate up to hundreds of thousands of postings; with the default 4 MB of
 * work_mem the hash aggregate spills to disk and takes twice as long.
 */
async function runBm25(
  sql: Sql,
  statement: string,
  params: unknown[],
): Promise<Array<{ id: number; score: number }>> {
  return sql.transaction(async (tx) => {
    await tx.query("SELECT set_config('work_mem', $1, true)", [BM25_WORK_MEM]);
    const result = await tx.query<{ id: number; score: number }>(statement, params);
    return result.rows;
  });
}

export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export interface LexicalOptions extends Omit<Bm25Options, 'pruning'> {
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
