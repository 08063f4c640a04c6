import { describe, expect, it } from 'vitest';
import { DecodedSegment, encodeSegment, type Posting } from '../../store/lexical-segments/index.js';
import { seededRandom as random } from '../../testing.js';
import { searchSegments, type SegmentSearchOptions } from './segment-search.js';

const VOCABULARY = Array.from({ length: 40 }, (_, index) => `w${index}`);

/** Segments of chunks whose words follow a Zipf-like law (w0 in most chunks, w39 in few). */
function corpus(next: () => number, segments: number, perSegment: number): DecodedSegment[] {
  let id = 1;
  return Array.from({ length: segments }, () => {
    const chunks: Array<{ id: number; length: number }> = [];
    const terms = new Map<string, Posting[]>();
    for (let index = 0; index < perSegment; index++) {
      const chunkId = (id += 1 + Math.floor(next() * 3));
      chunks.push({ id: chunkId, length: 5 + Math.floor(next() * 200) });
      VOCABULARY.forEach((word, rank) => {
        if (next() > 0.9 / (1 + rank * 0.4)) return;
        const posting = {
          chunkId,
          tf: Math.floor(next() * 4),
          tfHeading: next() < 0.2 ? 1 : 0,
          tfTitle: next() < 0.1 ? 1 + Math.floor(next() * 2) : 0,
        };
        if (posting.tf + posting.tfHeading + posting.tfTitle === 0) posting.tf = 1;
        terms.set(word, [...(terms.get(word) ?? []), posting]);
      });
    }
    return new DecodedSegment(encodeSegment({ chunks, terms }));
  });
}

/** Every chunk scored in full, in query order: what the pruned search must return. */
function exhaustive(
  segments: readonly DecodedSegment[],
  options: SegmentSearchOptions,
  excluded: ReadonlySet<number>,
  allowed?: ReadonlySet<number>,
): Array<{ id: number; score: number }> {
  const rows: Array<{ id: number; score: number }> = [];
  for (const segment of segments) {
    const scores = new Map<number, number>();
    options.lexemes.forEach((lexeme, term) => {
      const postings = segment.postings(lexeme);
      if (!postings) return;
      for (let index = 0; index < postings.positions.length; index++) {
        const tf =
          postings.tf[index]! +
          options.fields.heading * postings.tfHeading[index]! +
          options.fields.title * postings.tfTitle[index]!;
        if (!(tf > 0)) continue;
        const at = postings.positions[index]!;
        const norm =
          options.k1 * (1 - options.b + (options.b * segment.lengths[at]!) / options.averageLength);
        scores.set(
          at,
          (scores.get(at) ?? 0) + (options.weights[term]! * tf * (options.k1 + 1)) / (tf + norm),
        );
      }
    });
    for (const [at, score] of scores) {
      const id = segment.chunkIds[at]!;
      if (excluded.has(id) || (allowed && !allowed.has(id))) continue;
      rows.push({ id, score: Math.round(score * 1e9) / 1e9 });
    }
  }
  return rows.sort((one, other) => other.score - one.score || one.id - other.id).slice(0, options.limit);
}

describe('searchSegments', () => {
  it('returns exactly the exhaustive top k while skipping most postings of common terms', () => {
    let pruned = 0;
    let probed = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const next = random(seed);
      const segments = corpus(next, 1 + Math.floor(next() * 4), 50 + Math.floor(next() * 300));
      const ids = segments.flatMap((segment) => [...segment.chunkIds]);
      // Many deleted or filtered-out chunks among the best: they must not count towards the k.
      const deleted = next() * 0.6;
      const tombstones = new Set(ids.filter(() => next() < deleted));
      const share = 0.05 + next() * 0.85;
      const allowed = next() < 0.4 ? new Set(ids.filter(() => next() < share)) : undefined;
      const lexemes = VOCABULARY.filter(() => next() < 0.25);
      if (lexemes.length === 0) lexemes.push('w0', 'w30');
      // Rare words weigh more, as idf makes them; a few query words repeat (qtf 2).
      const weights = lexemes.map((word) => (0.2 + Number(word.slice(1)) / 8) * (next() < 0.2 ? 2 : 1));
      const options: SegmentSearchOptions = {
        lexemes,
        weights,
        k1: [0, 0.9, 1.2][seed % 3]!,
        b: [0, 0.4, 1][seed % 3]!,
        averageLength: 100,
        limit: 1 + Math.floor(next() * 25),
        fields: { heading: seed % 2, title: 2 * (seed % 3) },
      };
      const work = { scored: 0, probed: 0 };
      const view = { version: 1, chunkCount: ids.length, lexemeTotal: 0, segments, tombstones };
      const found = searchSegments(view, options, allowed, work);
      expect(found, `seed ${seed}`).toEqual(exhaustive(segments, options, tombstones, allowed));
      const postings = segments.reduce(
        (sum, segment) =>
          sum + lexemes.reduce((count, word) => count + (segment.postings(word)?.positions.length ?? 0), 0),
        0,
      );
      if (work.scored < postings) pruned++;
      probed += work.probed;
    }
    // The seeds exercise the pruned path, not only the exhaustive one.
    expect(pruned).toBeGreaterThan(60);
    expect(probed).toBeGreaterThan(0);
  });

  it('finds nothing for a zero limit, an absent word or postings whose weighted tf is 0', () => {
    const segments = [
      new DecodedSegment(
        encodeSegment({
          chunks: [{ id: 1, length: 4 }],
          terms: new Map([['title', [{ chunkId: 1, tf: 0, tfHeading: 0, tfTitle: 1 }]]]),
        }),
      ),
    ];
    const view = { version: 1, chunkCount: 1, lexemeTotal: 4, segments, tombstones: new Set<number>() };
    const options = { k1: 0.9, b: 0.4, averageLength: 4, limit: 5, fields: { heading: 1, title: 0 } };
    expect(searchSegments(view, { ...options, lexemes: ['title'], weights: [1] })).toEqual([]);
    expect(searchSegments(view, { ...options, lexemes: ['absent'], weights: [1] })).toEqual([]);
    expect(
      searchSegments(view, {
        ...options,
        limit: 0,
        lexemes: ['title'],
        weights: [1],
        fields: { heading: 1, title: 2 },
      }),
    ).toEqual([]);
    expect(
      searchSegments(view, {
        ...options,
        lexemes: ['title'],
        weights: [1],
        fields: { heading: 1, title: 2 },
      }),
    ).toHaveLength(1);
  });
});
