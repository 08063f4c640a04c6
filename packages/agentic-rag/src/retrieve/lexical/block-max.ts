import { loadSqlFile, type Sql } from '../../db/index.js';

const RANGE_BOUNDS = loadSqlFile(new URL('../sql/bm25-range-bounds.sql', import.meta.url));
const SCORE_RANGES = loadSqlFile(new URL('../sql/bm25-ranges.sql', import.meta.url));

/** Ranges scored by the first statement (with the tail); later batches grow by GROWTH at most. */
const FIRST_BATCH = 64;
const GROWTH = 4;

/**
 * Ranges worth scoring range by range. When more than this still reach the k-th score after the
 * first batch, the bounds are too loose to prune (terms spread evenly over the corpus, like the
 * Zipf benchmark's, give every range about the same bound) and a scan of the terms' postings is
 * cheaper than as many short index scans: the caller runs the full statement instead.
 */
const MAX_RANGES = 256;

/**
 * A bound and a real score of the same postings are computed in different orders; a chunk whose
 * score equals its range's bound must not end the search early on rounding.
 */
const ROUNDING = 1e-9;

export interface LexicalWatermark {
  rangeSize: number;
  /** Chunk ids below this are summarised (a multiple of rangeSize). */
  summarisedBelow: number;
}

export interface BlockMaxOptions {
  workspaceId: string;
  lexemes: readonly string[];
  /** qtf · idf per lexeme; positive. */
  weights: readonly number[];
  k1: number;
  b: number;
  averageLength: number;
  limit: number;
  fields: { heading: number; title: number };
  watermark: LexicalWatermark;
  /** Give up on ranges (complete: false) past this many; default MAX_RANGES. */
  maxRanges?: number;
}

export interface BlockMaxResult {
  /** The exact top k when `complete`; otherwise the best of the ranges scored so far. */
  rows: Array<{ id: number; score: number }>;
  /**
   * False when the bounds could not prune: `rows` are then real scores of some chunks, so the
   * k-th of them (when there are k) is a lower bound of the true k-th score.
   */
  complete: boolean;
  /** Summarised ranges holding a query term, and how many of them were scored. */
  ranges: number;
  rangesScored: number;
}

/**
 * Whether block-max bounds hold for these parameters: BM25F must grow with every field's
 * frequency and shrink with the chunk's length.
 */
export function blockMaxApplies(
  options: Pick<BlockMaxOptions, 'k1' | 'b' | 'fields' | 'watermark'>,
): boolean {
  return (
    options.watermark.summarisedBelow > 0 &&
    options.k1 >= 0 &&
    options.b >= 0 &&
    options.b <= 1 &&
    options.fields.heading >= 0 &&
    options.fields.title >= 0
  );
}

/**
 * Exact top-k BM25F by block-max pruning (Ding & Suel, 2011) over fixed ranges of chunk ids: read
 * each summarised range's bound (the sum over the query's terms of the most each can score
 * there), then score whole ranges best bound first, together with the unsummarised tail, until
 * the k-th best real score beats every bound not yet scored. The result is the full statement's,
 * ties broken by id: a range left out cannot hold a chunk that scores as much as the k-th.
 */
export async function blockMaxBm25(sql: Sql, options: BlockMaxOptions): Promise<BlockMaxResult> {
  const { rangeSize, summarisedBelow } = options.watermark;
  const scoring = [
    options.workspaceId,
    options.lexemes,
    options.weights,
    options.k1,
    options.b,
    options.averageLength,
    options.limit,
    options.fields.heading,
    options.fields.title,
  ];
  return sql.transaction(async (tx) => {
    const bounds = (
      await tx.query<{ range_no: number; bound: number }>(RANGE_BOUNDS, [
        options.workspaceId,
        options.lexemes,
        options.weights,
        options.k1,
        options.b,
        options.averageLength,
        options.fields.heading,
        options.fields.title,
        summarisedBelow / rangeSize,
      ])
    ).rows;

    let top: Array<{ id: number; score: number }> = [];
    let next = 0;
    let batch = FIRST_BATCH;
    let withTail = true;
    for (;;) {
      const threshold = top.length === options.limit ? top[options.limit - 1]!.score : -Infinity;
      // Every range that may still beat the k-th score, but no more than the batch allows, so a
      // better k-th score from this batch can spare the rest.
      let end = next;
      while (end < bounds.length && end - next < batch && reaches(bounds[end]!.bound, threshold)) end++;
      if (end === next && !withTail) break;
      if (!withTail && next + remainingReach(bounds, next, threshold) > (options.maxRanges ?? MAX_RANGES)) {
        return { rows: top, complete: false, ranges: bounds.length, rangesScored: next };
      }
      const starts = bounds.slice(next, end).map((range) => Number(range.range_no) * rangeSize);
      const scored = await tx.query<{ id: number; score: number }>(SCORE_RANGES, [
        ...scoring,
        rangeSize,
        starts,
        summarisedBelow,
        withTail,
      ]);
      top = bestOf(top, scored.rows, options.limit);
      next = end;
      withTail = false;
      batch *= GROWTH;
    }
    return { rows: top, complete: true, ranges: bounds.length, rangesScored: next };
  });
}

/** How many ranges from `from` on may still hold a chunk scoring `threshold` (bounds best first). */
function remainingReach(bounds: ReadonlyArray<{ bound: number }>, from: number, threshold: number): number {
  let low = from;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (reaches(bounds[middle]!.bound, threshold)) low = middle + 1;
    else high = middle;
  }
  return low - from;
}

function reaches(bound: number, threshold: number): boolean {
  return bound * (1 + ROUNDING) + ROUNDING >= threshold;
}

/** The best `limit` of two disjoint ranked lists, by score then id (the full statement's order). */
function bestOf(
  left: ReadonlyArray<{ id: number; score: number }>,
  right: ReadonlyArray<{ id: number; score: number }>,
  limit: number,
): Array<{ id: number; score: number }> {
  return [...left, ...right]
    .sort((one, other) => other.score - one.score || one.id - other.id)
    .slice(0, limit);
}
