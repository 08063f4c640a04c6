import { expect, it } from 'vitest';
import type { Embedder } from './embedder.js';

/**
 * What every Embedder adapter promises, as a vitest suite to call inside a describe(). Adapters
 * differ in where vectors come from, never in these.
 */
export function embedderConformance(make: () => Embedder): void {
  it('returns one finite vector of `dimensions` numbers per text, in order', async () => {
    const embedder = make();
    const texts = ['first text', 'second, different text', 'third'];
    const { embeddings } = await embedder.embed({ texts });
    expect(embeddings).toHaveLength(3);
    for (const vector of embeddings) {
      expect(vector).toHaveLength(embedder.dimensions);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
    const again = await embedder.embed({ texts: [texts[1]!] });
    expect(again.embeddings[0]).toEqual(embeddings[1]);
  });

  it('returns nothing for no texts', async () => {
    expect((await make().embed({ texts: [] })).embeddings).toEqual([]);
  });

  it('rejects with ABORTED when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(make().embed({ texts: ['x'], signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });

  it('has a model id to store with every chunk', () => {
    expect(make().modelId).toMatch(/\S/);
  });
}
