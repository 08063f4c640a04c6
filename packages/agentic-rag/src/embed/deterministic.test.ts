import { describe, expect, it } from 'vitest';
import { embedderConformance } from './conformance.js';
import { DeterministicEmbedder } from './deterministic.js';

const embedder = new DeterministicEmbedder();
const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const cosine = (left: string, right: string) => {
  const a = embedder.embedOne(left);
  const b = embedder.embedOne(right);
  return a.reduce((sum, value, index) => sum + value * b[index]!, 0);
};

describe('DeterministicEmbedder', () => {
  it('defaults to 768 dimensions and a stable model id', () => {
    expect(embedder.dimensions).toBe(768);
    expect(embedder.modelId).toBe('deterministic-hash-v1');
  });

  it('gives the same text the same vector in every instance', () => {
    const text = 'POST /locations creates a location';
    expect(new DeterministicEmbedder().embedOne(text)).toEqual(new DeterministicEmbedder().embedOne(text));
  });

  // Stored vectors are only comparable while hashing is unchanged; a change here needs a new modelId.
  it('pins the exact vector of a text, so hashing cannot change under the same modelId', () => {
    const expected = [
      0.6456048341418218, -0.04519233838992752, 0.38736290048509303, 0.04519233838992752, 0,
      0.04519233838992752, 0, 0.04519233838992752, -0.04519233838992752, -0.04519233838992752, 0, 0,
      -0.6456048341418218, 0.04519233838992752, 0, -0.04519233838992752,
    ];
    const vector = new DeterministicEmbedder({ dimensions: 16 }).embedOne('hello world');
    expect(vector).toHaveLength(16);
    vector.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 12));
  });

  it.each([8, 16, 384, 768, 1536])('returns unit vectors of length %i', (dimensions) => {
    const sized = new DeterministicEmbedder({ dimensions });
    for (const text of ['a', 'create a new location', 'carrier '.repeat(1000), 'naïve café 🚀 日本']) {
      const vector = sized.embedOne(text);
      expect(vector).toHaveLength(dimensions);
      expect(norm(vector)).toBeCloseTo(1, 10);
    }
  });

  it.each(['', '   ', '!!! ... ???', '—', '🚀🚀'])(
    'gives the wordless text %j a fixed unit vector, never NaN',
    (text) => {
      const vector = embedder.embedOne(text);
      expect(vector.some(Number.isNaN)).toBe(false);
      expect(norm(vector)).toBe(1);
      expect(vector[0]).toBe(1);
    },
  );

  it('embeds a batch in input order, the same as one at a time', async () => {
    const texts = ['first text', 'second text', ''];
    const result = await embedder.embed({ texts, purpose: 'query' });
    expect(result.embeddings).toEqual(texts.map((text) => embedder.embedOne(text)));
    expect(result.tokens).toBeUndefined();
  });

  it('embeds queries and documents the same way', async () => {
    const [query] = (await embedder.embed({ texts: ['rate shopping'], purpose: 'query' })).embeddings;
    const [document] = (await embedder.embed({ texts: ['rate shopping'], purpose: 'document' })).embeddings;
    expect(query).toEqual(document);
  });

  it('refuses to work once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed({ texts: ['x'], signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

describe('DeterministicEmbedder similarity', () => {
  it('puts a paraphrase sharing words far above an unrelated text', () => {
    const related = cosine('create a new location', 'POST /locations creates a location');
    const unrelated = cosine('create a new location', 'the POMDP belief update');
    expect(related).toBeGreaterThan(0.5);
    expect(unrelated).toBeLessThan(0.05);
  });

  it('tolerates a typo through character trigrams', () => {
    const typo = cosine('POMP belief update', 'POMDP belief update');
    const unrelated = cosine('POMP belief update', 'carrier rate shopping');
    expect(typo).toBeGreaterThan(0.6);
    expect(unrelated).toBeLessThan(0.05);
  });

  it.each([
    ['createLocation', 'create location'],
    ['create_location', 'create location'],
    ['create-location', 'create location'],
    ['locations', 'location'],
    ['Café', 'cafe'],
    ['CARRIER RATES', 'carrier rate'],
  ])('embeds %j exactly like %j (identifiers split, case, accents and plurals folded)', (left, right) => {
    expect(cosine(left, right)).toBeCloseTo(1, 10);
  });

  it('keeps word order through bigrams: a reordered phrase is close but not identical', () => {
    const reordered = cosine('belief update', 'update belief');
    expect(reordered).toBeGreaterThan(0.7);
    expect(reordered).toBeLessThan(0.99);
  });

  it('gives stopwords almost no weight', () => {
    expect(cosine('the location of the depot', 'location depot')).toBeGreaterThan(0.95);
    expect(cosine('the of and', 'a to in')).toBeLessThan(0.05);
  });

  it('counts repeated words sublinearly', () => {
    const once = cosine('carrier depot', 'carrier');
    const repeated = cosine(
      'carrier carrier carrier carrier carrier carrier carrier carrier carrier carrier depot',
      'carrier',
    );
    expect(repeated).toBeGreaterThan(once);
    expect(repeated).toBeLessThan(0.99);
  });

  it('embeds "updating" close to "update"', () => {
    expect(cosine('updating', 'update')).toBeGreaterThan(0.9);
  });
});

describe('DeterministicEmbedder conformance', () => {
  embedderConformance(() => new DeterministicEmbedder());
});
