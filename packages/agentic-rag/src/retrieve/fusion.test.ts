import { describe, expect, it } from 'vitest';
import {
  channelWeights,
  fuse,
  type ChannelCandidates,
  type FusedCandidate,
  type FusionOptions,
} from './fusion.js';

const vector = (ids: number[], scores: number[], weight = 1): ChannelCandidates => ({
  name: 'vector',
  ids,
  scores,
  weight,
});
const lexical = (ids: number[], scores: number[], weight = 1): ChannelCandidates => ({
  name: 'lexical',
  ids,
  scores,
  weight,
});

const WEIGHTED_MINMAX: FusionOptions = { method: 'weighted', normalization: 'minmax' };
const WEIGHTED_ZSCORE: FusionOptions = { method: 'weighted', normalization: 'zscore' };
const RRF: FusionOptions = { method: 'rrf', normalization: 'minmax' };

/** [id, fused score] pairs in result order. */
type Expected = Array<[number, number]>;

function expectRanking(result: FusedCandidate[], expected: Expected): void {
  expect(result.map((candidate) => candidate.id)).toEqual(expected.map(([id]) => id));
  result.forEach((candidate, index) => expect(candidate.score).toBeCloseTo(expected[index]![1], 12));
}

// z-scores of [3, 2, 1]: mean 2, population std √(2/3), so ±1/√(2/3) = ±√1.5.
const Z3 = Math.sqrt(1.5);
// z-scores of [4, 3, 1]: mean 8/3, deviations 4/3, 1/3, -5/3, std √(42/27) = √14/3.
const SQRT14 = Math.sqrt(14);

const ranking = (channels: ChannelCandidates[], options: FusionOptions) => fuse(channels, options).candidates;
const ADAPTIVE: FusionOptions = { method: 'adaptive', normalization: 'minmax' };

describe('fuse', () => {
  it.each<{ name: string; channels: ChannelCandidates[]; options: FusionOptions; expected: Expected }>([
    {
      // vector [9, 7, 5] → 1, 0.5, 0; lexical [12, 8, 2] → 1, 0.6, 0.
      // 1: 0.6·1 + 0.4·0 = 0.6; 2: 0.6·0.5 + 0.4·1 = 0.7; 3: 0.6·0 + floor 0; 4: floor 0 + 0.4·0.6.
      name: 'weighted min-max over two channels',
      channels: [vector([1, 2, 3], [9, 7, 5], 0.6), lexical([2, 4, 1], [12, 8, 2], 0.4)],
      options: WEIGHTED_MINMAX,
      expected: [
        [2, 0.7],
        [1, 0.6],
        [4, 0.24],
        [3, 0],
      ],
    },
    {
      // vector [3, 2, 1] → √1.5, 0, -√1.5; lexical [10, 4] → mean 7, std 3 → 1, -1.
      // Missing from lexical: its lowest z, -1. Missing from vector: -√1.5.
      name: 'weighted z-score, missing candidates get the lowest z of the channel',
      channels: [vector([1, 2, 3], [3, 2, 1]), lexical([3, 4], [10, 4])],
      options: WEIGHTED_ZSCORE,
      expected: [
        [1, Z3 - 1],
        [3, -Z3 + 1],
        [2, 0 - 1],
        [4, -Z3 - 1],
      ],
    },
    {
      name: 'min-max floor: a candidate only lexical returned gets 0 from vector',
      channels: [vector([1, 2], [0.9, 0.1], 0.5), lexical([3, 1], [5, 1], 0.5)],
      options: WEIGHTED_MINMAX,
      expected: [
        [1, 0.5],
        [3, 0.5],
        [2, 0],
      ],
    },
    {
      name: 'empty vector channel: lexical alone decides (weight × min-max)',
      channels: [vector([], [], 0.5), lexical([7, 8, 9], [4, 3, 1], 0.4)],
      options: WEIGHTED_MINMAX,
      expected: [
        [7, 0.4],
        [8, 0.4 * (2 / 3)],
        [9, 0],
      ],
    },
    {
      name: 'empty vector channel: lexical alone decides (weight × z-score)',
      channels: [vector([], [], 0.5), lexical([7, 8, 9], [4, 3, 1], 0.4)],
      options: WEIGHTED_ZSCORE,
      expected: [
        [7, (0.4 * 4) / SQRT14],
        [8, (0.4 * 1) / SQRT14],
        [9, (0.4 * -5) / SQRT14],
      ],
    },
    {
      // Vector all 0.5 → 1 each; id 3 was not in vector, so it gets the floor 0 there.
      name: 'all-equal channel under min-max gives 1 to all',
      channels: [vector([1, 2], [0.5, 0.5]), lexical([2, 3], [5, 1])],
      options: WEIGHTED_MINMAX,
      expected: [
        [2, 2],
        [1, 1],
        [3, 0],
      ],
    },
    {
      // Vector z all 0, so its floor is 0 too; lexical [5, 1] → 1, -1, floor -1. 1 and 3 tie at -1:
      // 1 is rank 1 in vector, 3 only rank 2 in lexical.
      name: 'all-equal channel under z-score gives 0 to all',
      channels: [vector([1, 2], [0.5, 0.5]), lexical([2, 3], [5, 1])],
      options: WEIGHTED_ZSCORE,
      expected: [
        [2, 1],
        [1, -1],
        [3, -1],
      ],
    },
    {
      name: 'a single candidate under min-max normalises to 1',
      channels: [vector([5], [0.3], 0.7)],
      options: WEIGHTED_MINMAX,
      expected: [[5, 0.7]],
    },
    {
      name: 'a single candidate under z-score normalises to 0',
      channels: [vector([5], [0.3], 0.7)],
      options: WEIGHTED_ZSCORE,
      expected: [[5, 0]],
    },
    {
      name: 'a single candidate under RRF',
      channels: [vector([5], [0.3], 0.7)],
      options: RRF,
      expected: [[5, 0.7 / 61]],
    },
    {
      name: 'a zero-weight channel is ignored, including the candidates only it returned',
      channels: [vector([1, 2], [0.8, 0.4]), lexical([9, 2], [20, 10], 0)],
      options: WEIGHTED_MINMAX,
      expected: [
        [1, 1],
        [2, 0],
      ],
    },
    {
      name: 'equal scores: the better single-channel rank wins over the smaller id',
      channels: [vector([8, 3], [1, 1])],
      options: WEIGHTED_MINMAX,
      expected: [
        [8, 1],
        [3, 1],
      ],
    },
    {
      name: 'equal scores and equal best rank: the smaller id wins',
      channels: [vector([8], [0.2]), lexical([3], [7])],
      options: WEIGHTED_MINMAX,
      expected: [
        [3, 1],
        [8, 1],
      ],
    },
    {
      name: 'RRF ties (rank 1 + rank 2 each) fall back to the id',
      channels: [vector([40, 30], [0.9, 0.8]), lexical([30, 40], [3, 2])],
      options: RRF,
      expected: [
        [30, 1 / 61 + 1 / 62],
        [40, 1 / 61 + 1 / 62],
      ],
    },
    {
      // 1: 1/61 + 0.5/62; 2: 1/62 only; 3: 1/63 + 0.5/61. Raw scores play no part.
      name: 'RRF with the default k = 60',
      channels: [vector([1, 2, 3], [0.9, 0.2, 0.1]), lexical([3, 1], [100, 1], 0.5)],
      options: RRF,
      expected: [
        [1, 1 / 61 + 0.5 / 62],
        [3, 1 / 63 + 0.5 / 61],
        [2, 1 / 62],
      ],
    },
    {
      name: 'RRF with a custom rrfK = 1',
      channels: [vector([1, 2, 3], [0.9, 0.2, 0.1]), lexical([3, 1], [100, 1], 0.5)],
      options: { ...RRF, rrfK: 1 },
      expected: [
        [1, 1 / 2 + 0.5 / 3],
        [3, 1 / 4 + 0.5 / 2],
        [2, 1 / 3],
      ],
    },
  ])('$name', ({ channels, options, expected }) => {
    expectRanking(ranking(channels, options), expected);
  });

  it('checks the hand-computed RRF numbers', () => {
    const [first, second, third] = ranking(
      [vector([1, 2, 3], [0.9, 0.2, 0.1]), lexical([3, 1], [100, 1], 0.5)],
      RRF,
    );
    expect(first!.score).toBeCloseTo(0.024458, 6);
    expect(second!.score).toBeCloseTo(0.02407, 6);
    expect(third!.score).toBeCloseTo(0.016129, 6);
  });

  it('reports every channel that returned a candidate with its raw score, rank and normalised score', () => {
    const result = ranking(
      [vector([1, 2, 3], [9, 7, 5], 0.6), lexical([2, 4, 1], [12, 8, 2], 0.4)],
      WEIGHTED_MINMAX,
    );
    const byId = new Map(result.map((candidate) => [candidate.id, candidate.channels]));
    expect(byId.get(1)).toEqual({
      vector: { score: 9, rank: 1, normalized: 1 },
      lexical: { score: 2, rank: 3, normalized: 0 },
    });
    expect(byId.get(2)).toEqual({
      vector: { score: 7, rank: 2, normalized: 0.5 },
      lexical: { score: 12, rank: 1, normalized: 1 },
    });
    expect(byId.get(3)).toEqual({ vector: { score: 5, rank: 3, normalized: 0 } });
    expect(byId.get(4)).toEqual({ lexical: { score: 8, rank: 2, normalized: 0.6 } });
  });

  it('reports z-scores as the normalised value, and normalised values under RRF too', () => {
    const [zscore] = ranking([vector([1, 2], [10, 4])], WEIGHTED_ZSCORE);
    expect(zscore!.channels).toEqual({ vector: { score: 10, rank: 1, normalized: 1 } });
    const [rrf] = ranking([vector([1, 2], [10, 4])], RRF);
    expect(rrf!.channels).toEqual({ vector: { score: 10, rank: 1, normalized: 1 } });
  });

  it('returns nothing when no channel has candidates', () => {
    expect(ranking([vector([], []), lexical([], [])], WEIGHTED_MINMAX)).toEqual([]);
    expect(ranking([], RRF)).toEqual([]);
  });

  describe('adaptive', () => {
    // Ten-deep lists so the peak reads the tenth score. Lexical (weight 0.6) is the anchor.
    const ids = (from: number) => Array.from({ length: 10 }, (_, index) => from + index);
    const falling = (best: number, step: number) =>
      Array.from({ length: 10 }, (_, index) => best - index * step);

    it('keeps the anchor at its weight and scales another channel by peak × (½ + agreement)', () => {
      // vector: best 1.0, tenth 0.55 → peak 0.45; shares 5 of its top 10 with lexical → agreement 0.5.
      const weights = channelWeights(
        [
          vector([...ids(1).slice(0, 5), ...ids(100).slice(0, 5)], falling(1, 0.05), 0.3),
          lexical(ids(1), falling(9, 0.5), 0.6),
        ],
        true,
      );
      expect(weights.lexical).toEqual({
        configured: 0.6,
        effective: 0.6,
        confidence: 1,
        peak: 0.5,
        agreement: 1,
      });
      expect(weights.vector!.peak).toBeCloseTo(0.45, 10);
      expect(weights.vector!.agreement).toBe(0.5);
      expect(weights.vector!.confidence).toBeCloseTo(0.45, 10);
      expect(weights.vector!.effective).toBeCloseTo(0.3 * 0.45, 10);
    });

    it('lets a flat, disagreeing channel move the anchor ranking less than weighted fusion does', () => {
      // Vector's flat top ten (peak 0.009) shares nothing with lexical's. Weighted fusion puts
      // vector's favourite second; adaptive counts vector at 0.55 · 0.009 · ½, so lexical's top nine
      // (min-max above that) all stay ahead of it.
      const channels = [vector(ids(100), falling(0.5, 0.0005), 0.55), lexical(ids(1), falling(9, 0.5), 0.6)];
      expect(ranking(channels, WEIGHTED_MINMAX)[1]!.id).toBe(100);
      const adaptive = fuse(channels, ADAPTIVE);
      expect(adaptive.candidates.slice(0, 9).map((candidate) => candidate.id)).toEqual(ids(1).slice(0, 9));
      expect(adaptive.weights.vector!.confidence).toBeCloseTo(0.009 * 0.5, 4);
    });

    it('anchors on the heaviest channel that returned anything', () => {
      const weights = channelWeights([vector(ids(1), falling(1, 0.01), 0.7), lexical([], [], 0.9)], true);
      expect(weights.vector!.confidence).toBe(1);
      expect(weights.lexical!.effective).toBe(0);
    });

    it('reports configured weights unchanged when not adaptive', () => {
      const { weights } = fuse(
        [vector(ids(1), falling(1, 0.01), 0.5), lexical(ids(50), falling(9, 0.5), 0.35)],
        RRF,
      );
      expect(weights.vector).toMatchObject({ configured: 0.5, effective: 0.5, confidence: 1 });
      expect(weights.lexical).toMatchObject({ configured: 0.35, effective: 0.35, confidence: 1 });
    });
  });
});
