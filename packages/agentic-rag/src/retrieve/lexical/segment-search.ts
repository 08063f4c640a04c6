import type { LexicalIndexView } from '../../store/index.js';

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
 * Exact top-k BM25F over a workspace's segments, in process: each query term's postings are read
 * from the decoded segments (term-at-a-time, into one accumulator per segment), chunks with a
 * tombstone are skipped, and the best `limit` are kept in a heap. Chunks whose weighted tf is 0 for
 * every term do not match; scores are rounded to 1e-9 so that a sum taken in another order (the
 * full scan the tests compare with) ranks alike, by score, then id.
 */
export function searchSegments(
  view: LexicalIndexView,
  options: SegmentSearchOptions,
  /** The only chunks that may be returned (a filtered search's); all when absent. */
  allowed?: ReadonlySet<number>,
): Array<{ id: number; score: number }> {
  const top = new TopK(options.limit);
  if (options.limit <= 0) return [];
  const { k1, b, averageLength } = options;
  const { heading, title } = options.fields;
  for (const segment of view.segments) {
    let scores: Float64Array | undefined;
    let seen: Uint8Array | undefined;
    const touched: number[] = [];
    options.lexemes.forEach((lexeme, term) => {
      const postings = segment.postings(lexeme);
      if (!postings) return;
      const weight = options.weights[term]!;
      scores ??= new Float64Array(segment.chunkCount);
      seen ??= new Uint8Array(segment.chunkCount);
      for (let index = 0; index < postings.positions.length; index++) {
        const tf =
          postings.tf[index]! + heading * postings.tfHeading[index]! + title * postings.tfTitle[index]!;
        if (!(tf > 0)) continue;
        const at = postings.positions[index]!;
        const norm = k1 * (1 - b + (b * segment.lengths[at]!) / averageLength);
        scores[at]! += (weight * tf * (k1 + 1)) / (tf + norm);
        if (!seen[at]) {
          seen[at] = 1;
          touched.push(at);
        }
      }
    });
    if (!scores) continue;
    for (const at of touched) {
      const id = segment.chunkIds[at]!;
      if (view.tombstones.has(id) || (allowed && !allowed.has(id))) continue;
      top.offer(id, Math.round(scores[at]! * SCORE_GRID) / SCORE_GRID);
    }
  }
  return top.sorted();
}

/** The best k (score, id) pairs seen: a min-heap whose root is the worst kept (lowest score, then highest id). */
class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

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
