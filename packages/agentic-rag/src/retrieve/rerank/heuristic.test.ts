import { describe, expect, it } from 'vitest';
import { HeuristicReranker } from './heuristic.js';
import type { RerankCandidate } from './reranker.js';

const reranker = new HeuristicReranker();

let nextId = 1;
const candidate = (text: string, overrides: Partial<RerankCandidate> = {}): RerankCandidate => ({
  id: nextId++,
  text,
  title: null,
  sectionPath: '',
  fusedScore: 1,
  ...overrides,
});

async function features(query: string, candidates: RerankCandidate[]) {
  const result = await reranker.rerank({ query, candidates });
  return result.features!;
}
async function identifierFeatures(query: string, texts: string[]) {
  const found = await features(
    query,
    texts.map((text) => candidate(text, { sectionPath: 'Reference' })),
  );
  return found.map((feature) => feature.identifier);
}

const POST_LOCATIONS = 'What does POST /locations do?';
const OPENAPI_POST = 'paths:\n  /locations:\n    post:\n      operationId: createLocation\n';
const OPENAPI_GET_ONE = 'paths:\n  /locations/{locationId}:\n    get:\n      operationId: getLocation\n';
const PROSE_POST = 'POST /locations creates a location.';

describe('HeuristicReranker', () => {
  it('is named heuristic', () => {
    expect(reranker.name).toBe('heuristic');
  });

  it('returns no scores and no features for no candidates', async () => {
    expect(await reranker.rerank({ query: 'rate card update', candidates: [] })).toEqual({
      scores: [],
      features: [],
    });
  });

  describe('exact identifiers', () => {
    it('scores the operation, not a sibling path, for POST /locations', async () => {
      // The path without the method never appears in the GET chunk: /locations/{locationId} is
      // a different path, so not even the weak form matches.
      expect(await identifierFeatures(POST_LOCATIONS, [OPENAPI_POST, OPENAPI_GET_ONE, PROSE_POST])).toEqual([
        1, 0, 1,
      ]);
    });

    it('lets an exact operation beat a higher fused score (numbers by hand)', async () => {
      // Query terms: post, location.
      // Fused scores 0.5, 1, 0.25 are min-max scaled over the candidates: 1/3, 1, 0.
      // A: words path location post operation id creat location; heading {location, api, path}.
      //    fused 1/3, coverage 1, proximity 2/2, heading 1/2, identifier 1 → 1.0
      // B: words path location location id get operation id get location; heading {path}.
      //    fused 1, coverage 1/2, proximity 0 (one term), heading 0, identifier 0 → 0.55
      // C: words post location creat location; heading {guid, location}.
      //    fused 0, coverage 1, proximity 1, heading 1/2, identifier 1 → 0.85
      const result = await reranker.rerank({
        query: POST_LOCATIONS,
        candidates: [
          candidate(OPENAPI_POST, {
            title: 'Locations API',
            sectionPath: 'paths > /locations',
            fusedScore: 0.5,
          }),
          candidate(OPENAPI_GET_ONE, { sectionPath: 'paths', fusedScore: 1 }),
          candidate(PROSE_POST, { title: 'Locations', sectionPath: 'Guides > Locations', fusedScore: 0.25 }),
        ],
      });
      expect(result.features).toEqual([
        { fused: 1 / 3, coverage: 1, proximity: 1, heading: 0.5, identifier: 1, title: 0 },
        { fused: 1, coverage: 0.5, proximity: 0, heading: 0, identifier: 0, title: 0 },
        { fused: 0, coverage: 1, proximity: 1, heading: 0.5, identifier: 1, title: 0 },
      ]);
      const [a, b, c] = result.scores;
      expect(a).toBeCloseTo(1.0, 12);
      expect(b).toBeCloseTo(0.55, 12);
      expect(c).toBeCloseTo(0.85, 12);
    });

    it('scores a numbered definition 1 and a mention 0.25', async () => {
      expect(
        await identifierFeatures('Explain Algorithm 3.2', [
          '**Algorithm 3.2.** Variable elimination sums out one variable at a time.',
          'This works as in Algorithm 3.2, applied twice.',
          'Belief propagation on a chain.',
        ]),
      ).toEqual([1, 0.25, 0]);
    });

    it('does not count Algorithm 3.21 as a mention of Algorithm 3.2', async () => {
      expect(
        await identifierFeatures('Explain Algorithm 3.2', ['Algorithm 3.21 runs on junction trees.']),
      ).toEqual([0]);
    });

    it('matches error codes exactly and case-sensitively', async () => {
      expect(
        await identifierFeatures('Why does booking fail with CARRIER_SUSPENDED?', [
          'CARRIER_SUSPENDED means the carrier account is paused.',
          'The carrier was suspended last week.',
          'CARRIER_SUSPENDED_TEMPORARILY is retried.',
        ]),
      ).toEqual([1, 0, 0]);
      expect(
        await identifierFeatures('Timeline of INC-2291', [
          'INC-2291: database failover',
          'INC-2292: disk full',
          'inc-2291 in lower case',
        ]),
      ).toEqual([1, 0, 0]);
    });

    it('reads the section path as well as the text', async () => {
      expect(await identifierFeatures('Timeline of INC-2291', ['Timeline'])).toEqual([0]);
      const [found] = await features('Timeline of INC-2291', [
        candidate('Timeline', { sectionPath: 'Incidents > INC-2291' }),
      ]);
      expect(found!.identifier).toBe(1);
    });
  });

  describe('coverage, proximity and heading (query "rate card update" → rate, card, updat)', () => {
    const candidates = () => [
      // words: updat rate card send new rate card; heading {rate, card, pric}.
      // coverage 3/3; proximity 3 terms / window "update a rate card" of 3 → 1; heading 2/3.
      candidate('To update a rate card, send the new rate card.', {
        title: 'Rate cards',
        sectionPath: 'Pricing > Rate cards',
        fusedScore: 0.8,
      }),
      // words: card holder rate servic later updat pric; shortest window card…updat = 6 words.
      candidate('Card holders can rate the service. Later we update prices.', { fusedScore: 0.4 }),
      candidate('Nothing relevant here.', { title: 'Other', sectionPath: 'Misc', fusedScore: 0 }),
      // Every term only in the title: covered, but no proximity in the text.
      candidate('Send a PUT request.', { title: 'Updating rate cards', sectionPath: 'API', fusedScore: 0.2 }),
    ];

    it('computes each feature by hand', async () => {
      const found = await features('rate card update', candidates());
      expect(found[0]).toEqual({
        fused: 1,
        coverage: 1,
        proximity: 1,
        heading: 2 / 3,
        identifier: 0,
        title: 0,
      });
      expect(found[1]).toEqual({
        fused: 0.5,
        coverage: 1,
        proximity: 0.5,
        heading: 0,
        identifier: 0,
        title: 0,
      });
      expect(found[2]).toEqual({ fused: 0, coverage: 0, proximity: 0, heading: 0, identifier: 0, title: 0 });
      expect(found[3]).toEqual({
        fused: 0.25,
        coverage: 1,
        proximity: 0,
        heading: 1,
        identifier: 0,
        title: 0,
      });
    });

    it('blends the features with weights fused 0.45, coverage 0.2, proximity 0.1, heading 0.1', async () => {
      const { scores } = await reranker.rerank({ query: 'rate card update', candidates: candidates() });
      expect(scores).toHaveLength(4);
      expect(scores[0]).toBeCloseTo(0.45 + 0.2 + 0.1 + 0.1 * (2 / 3), 12);
      expect(scores[1]).toBeCloseTo(0.45 * 0.5 + 0.2 + 0.1 * 0.5, 12);
      expect(scores[2]).toBe(0);
      expect(scores[3]).toBeCloseTo(0.45 * 0.25 + 0.2 + 0.1, 12);
    });

    it('returns scores in candidate order', async () => {
      const forward = await reranker.rerank({ query: 'rate card update', candidates: candidates() });
      const backward = await reranker.rerank({
        query: 'rate card update',
        candidates: candidates().reverse(),
      });
      expect(backward.scores).toEqual([...forward.scores].reverse());
    });

    it('gives proximity 0 when only one query term is present', async () => {
      const [found] = await features('rate card update', [candidate('The rate is fixed; the rate is low.')]);
      expect(found).toEqual({ fused: 1, coverage: 1 / 3, proximity: 0, heading: 0, identifier: 0, title: 0 });
    });

    it('gives zero coverage and heading for a query of stopwords only', async () => {
      const [found] = await features('what is it', [candidate('What is it?', { title: 'What' })]);
      expect(found).toEqual({ fused: 1, coverage: 0, proximity: 0, heading: 0, identifier: 0, title: 0 });
    });

    it('gives fused 1 to every candidate when all fused scores are equal', async () => {
      const found = await features('rate card', [
        candidate('rate card', { fusedScore: 0 }),
        candidate('card', { fusedScore: 0 }),
      ]);
      expect(found.map((feature) => feature.fused)).toEqual([1, 1]);
    });
  });

  it('keeps the fused feature within [0, 1] under z-score fusion scores', async () => {
    const found = await features('rate card', [
      candidate('rate card', { fusedScore: 0.5 }),
      candidate('rate card', { fusedScore: -1.5 }),
    ]);
    expect(found[1]!.fused).toBeGreaterThanOrEqual(0);
  });
});
