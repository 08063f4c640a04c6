import type { DecodedSegment, LexicalIndexView, TermPostings } from '../../store/index.js';

/** BM25F's parameters for one search (see bm25Channel). */
export interface SegmentSearchOptions {
  /** The query's lexemes and, in the same order, their weights (query tf · idf). */
  lexemes: readonly string[];
  weights: readonly number[];
  k1: number;
  b: number;
  /** Average chunk length in lexemes. */
  averageLength: number;
  limit: number;
  /** Weights of a posting's heading-trail and title frequencies against its body's. */
  fields: { heading: number; title: number };
}

/** Scores are rounded to this grid before ranking, as every BM25 statement rounds them. */
const SCORE_GRID = 1e9;

/**
 * Slack on every pruning comparison: a score may round up by half a grid step, and a term's bound
 * and its real contribution are computed by different float operations.
 */
const PRUNE_SLACK = 2 / SCORE_GRID;

export interface SearchWork {
  scored: number;
  probed: number;
}

/** One query term's postings in one segment, with the most it can add to a chunk's score. */
interface SegmentTerm {
  postings: TermPostings;
  weight: number;
  bound: number;
}

/**
 * Exact top-k BM25F over a workspace's segments, in process, pruned as MaxScore prunes: in each
 * segment the query's terms are taken in decreasing order of the most each can add to a chunk
 * (from its postings' largest frequencies and shortest chunk). Terms are scored term-at-a-time
 * into one accumulator per segment until the bounds of the terms left add up to less than the
 * k-th best score already certain (the heap of earlier segments, or the k-th best partial sum of
 * this one); from there no chunk the scored terms missed can reach the top k, so the remaining
 * (common, low-idf) terms are only looked up for the chunks already found, and a chunk is dropped
 * as soon as its partial sum plus the bounds left cannot reach that score. Tombstoned chunks and
 * those a filter excludes are skipped. Chunks whose weighted tf is 0 for every term do not match;
 * scores are rounded to 1e-9 so that a sum taken in another order (the full scan the tests compare
 * with) ranks alike, by score, then id.
 */
export function searchSegments(
  view: LexicalIndexView,
  options: SegmentSearchOptions,
  /** The only chunks that may be returned (a filtered search's); all when absent. */
  allowed?: ReadonlySet<number>,
  /** Counts the work done: postings scored in full, and chunks looked up in a term's postings. */
  work: SearchWork = { scored: 0, probed: 0 },
): Array<{ id: number; score: number }> {
  if (options.limit <= 0) return [];
  const top = new TopK(options.limit);
  for (const segment of view.segments) {
    const terms = segmentTerms(segment, options);
    if (terms.length === 0) continue;
    const everyChunk = view.tombstones.size === 0 && !allowed;
    const usable = (at: number): boolean => {
      if (everyChunk) return true;
      const id = segment.chunkIds[at]!;
      return !view.tombstones.has(id) && (!allowed || allowed.has(id));
    };
    // left[i]: the most the terms from i on can add to any chunk.
    const left = new Float64Array(terms.length + 1);
    for (let term = terms.length - 1; term >= 0; term--) left[term] = left[term + 1]! + terms[term]!.bound;
    const scores = new Float64Array(segment.chunkCount);
    const seen = new Uint8Array(segment.chunkCount);
    const touched: number[] = [];
    let term = 0;
    for (; term < terms.length; term++) {
      if (term > 0 && outranked(top, scores, touched, usable, options.limit, left[term]! + PRUNE_SLACK))
        break;
      accumulate(segment, terms[term]!, options, scores, seen, touched);
      work.scored += terms[term]!.postings.positions.length;
    }
    let found: ArrayLike<number> = touched;
    if (term < terms.length) {
      // Every chunk that can still reach the top k is among those found: look the rest up for them.
      let candidates = Int32Array.from(touched);
      if (!everyChunk) candidates = candidates.filter(usable);
      for (let first = true; term < terms.length && candidates.length > 0; term++, first = false) {
        const floor =
          kthBest(top, scores, candidates, options.limit, left[term]! + PRUNE_SLACK) - PRUNE_SLACK;
        const reach = left[term]!;
        candidates = candidates.filter((at) => !(scores[at]! + reach < floor));
        if (first) candidates.sort();
        probe(segment, terms[term]!, options, scores, candidates);
        work.probed += candidates.length;
      }
      found = candidates;
    }
    for (let index = 0; index < found.length; index++) {
      const at = found[index]!;
      if (!usable(at)) continue;
      top.offer(segment.chunkIds[at]!, Math.round(scores[at]! * SCORE_GRID) / SCORE_GRID);
    }
  }
  return top.sorted();
}

/** The query's terms present in a segment, in decreasing order of their bound (query order on ties). */
function segmentTerms(segment: DecodedSegment, options: SegmentSearchOptions): SegmentTerm[] {
  const { k1, b, averageLength } = options;
  const heading = Math.max(0, options.fields.heading);
  const title = Math.max(0, options.fields.title);
  const terms: SegmentTerm[] = [];
  options.lexemes.forEach((lexeme, index) => {
    const postings = segment.postings(lexeme);
    if (!postings) return;
    const weight = options.weights[index]!;
    // tf·(k1+1)/(tf+norm) grows with tf and shrinks with the chunk's length.
    const tf = postings.maxTf + heading * postings.maxTfHeading + title * postings.maxTfTitle;
    if (!(tf > 0)) return;
    const norm = k1 * (1 - b + (b * postings.minLength) / averageLength);
    terms.push({ postings, weight, bound: (weight * tf * (k1 + 1)) / (tf + norm) });
  });
  return terms.sort((one, other) => other.bound - one.bound);
}

/** The contribution of one posting (index into the term's postings) to its chunk's score. */
function contribution(
  segment: DecodedSegment,
  term: SegmentTerm,
  index: number,
  options: SegmentSearchOptions,
): number {
  const { postings } = term;
  const { k1, b, averageLength } = options;
  const tf =
    postings.tf[index]! +
    options.fields.heading * postings.tfHeading[index]! +
    options.fields.title * postings.tfTitle[index]!;
  if (!(tf > 0)) return 0;
  const norm = k1 * (1 - b + (b * segment.lengths[postings.positions[index]!]!) / averageLength);
  return (term.weight * tf * (k1 + 1)) / (tf + norm);
}

/** Scores every posting of a term, finding chunks no earlier term matched. */
function accumulate(
  segment: DecodedSegment,
  term: SegmentTerm,
  options: SegmentSearchOptions,
  scores: Float64Array,
  seen: Uint8Array,
  touched: number[],
): void {
  const { positions } = term.postings;
  for (let index = 0; index < positions.length; index++) {
    const add = contribution(segment, term, index, options);
    if (!(add > 0)) continue;
    const at = positions[index]!;
    scores[at]! += add;
    if (!seen[at]) {
      seen[at] = 1;
      touched.push(at);
    }
  }
}

/** Adds a term's contribution to the given chunks only (ascending positions), galloping through its postings. */
function probe(
  segment: DecodedSegment,
  term: SegmentTerm,
  options: SegmentSearchOptions,
  scores: Float64Array,
  chunks: Int32Array,
): void {
  const { positions } = term.postings;
  let from = 0;
  for (const at of chunks) {
    from = seek(positions, at, from);
    if (from >= positions.length) return;
    if (positions[from] === at) scores[at]! += contribution(segment, term, from, options);
  }
}

/** The first index at or after `from` whose position is ≥ target (exponential, then binary search). */
function seek(positions: Int32Array, target: number, from: number): number {
  let step = 1;
  let high = from;
  while (high < positions.length && positions[high]! < target) {
    from = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, positions.length);
  while (from < high) {
    const middle = (from + high) >>> 1;
    if (positions[middle]! < target) from = middle + 1;
    else high = middle;
  }
  return from;
}

/**
 * Whether k results are already certain to score above `score`: the heap's worst does, or k of
 * this segment's returnable chunks already have a partial sum above it (sums only grow).
 */
function outranked(
  top: TopK,
  scores: Float64Array,
  chunks: readonly number[],
  usable: (at: number) => boolean,
  k: number,
  score: number,
): boolean {
  if (top.full() && top.worstScore() > score) return true;
  if (chunks.length < k) return false;
  let above = 0;
  for (const at of chunks) if (scores[at]! > score && usable(at) && ++above >= k) return true;
  return false;
}

/**
 * A score the k-th best result will have at least: the heap's worst once it holds k results, or
 * the k-th best partial sum above `above` among the given returnable chunks; -∞ when neither is
 * known yet.
 */
function kthBest(top: TopK, scores: Float64Array, chunks: Int32Array, k: number, above: number): number {
  const floor = top.full() ? top.worstScore() : Number.NEGATIVE_INFINITY;
  const partial = new TopK(k);
  const least = Math.max(floor, above);
  for (const at of chunks) if (scores[at]! > least) partial.offer(at, scores[at]!);
  return partial.full() ? Math.max(floor, partial.worstScore()) : floor;
}

/** The best k (score, id) pairs seen: a min-heap whose root is the worst kept (lowest score, then highest id). */
class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  full(): boolean {
    return this.k > 0 && this.ids.length >= this.k;
  }

  /** The lowest score kept (the root); only meaningful when full. */
  worstScore(): number {
    return this.scores[0]!;
  }

  offer(id: number, score: number): void {
    if (this.ids.length < this.k) {
      this.ids.push(id);
      this.scores.push(score);
      this.up(this.ids.length - 1);
    } else if (this.k > 0 && this.better(score, id, 0)) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): Array<{ id: number; score: number }> {
    return this.ids
      .map((id, index) => ({ id, score: this.scores[index]! }))
      .sort((one, other) => other.score - one.score || one.id - other.id);
  }

  /** Whether (score, id) ranks above the entry at `at`. */
  private better(score: number, id: number, at: number): boolean {
    return score > this.scores[at]! || (score === this.scores[at]! && id < this.ids[at]!);
  }

  private up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.better(this.scores[parent]!, this.ids[parent]!, at)) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < this.ids.length && this.better(this.scores[worst]!, this.ids[worst]!, left)) worst = left;
      if (right < this.ids.length && this.better(this.scores[worst]!, this.ids[worst]!, right)) worst = right;
      if (worst === at) return;
      this.swap(at, worst);
      at = worst;
    }
  }

  private swap(one: number, other: number): void {
    [this.ids[one], this.ids[other]] = [this.ids[other]!, this.ids[one]!];
    [this.scores[one], this.scores[other]] = [this.scores[other]!, this.scores[one]!];
  }
}
