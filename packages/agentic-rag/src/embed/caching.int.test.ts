import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { CachingEmbedder } from './caching.js';
import { DeterministicEmbedder } from './deterministic.js';
import type { EmbedOptions, Embedder } from './embedder.js';

/** A real embedder that also records what it was asked to embed. */
class Recording implements Embedder {
  readonly calls: string[][] = [];
  private readonly inner = new DeterministicEmbedder({ dimensions: 768 });
  readonly modelId = `recording-${Math.random().toString(36).slice(2, 8)}`;
  readonly dimensions = 768;
  embed(options: EmbedOptions) {
    this.calls.push([...options.texts]);
    return this.inner.embed(options);
  }
}

for (const backend of testBackends()) {
  describe(`CachingEmbedder (${backend.name})`, () => {
    let sql: Sql;
    beforeAll(async () => {
      sql = await backend.open();
    });
    afterAll(async () => {
      await sql.query("DELETE FROM rag_embedding_cache WHERE model LIKE 'recording-%'");
      await sql.close();
    });

    it('asks the embedder only for document texts it has not embedded before, and returns the same vectors', async () => {
      const inner = new Recording();
      const cached = new CachingEmbedder(inner, sql);
      const first = await cached.embed({ texts: ['alpha', 'bravo', 'alpha'], purpose: 'document' });
      expect(inner.calls).toEqual([['alpha', 'bravo']]);
      const second = await cached.embed({ texts: ['bravo', 'charlie', 'alpha'], purpose: 'document' });
      expect(inner.calls).toEqual([['alpha', 'bravo'], ['charlie']]);
      const direct = await new DeterministicEmbedder({ dimensions: 768 }).embed({
        texts: ['alpha', 'bravo', 'charlie'],
      });
      const close = (left: number[], right: number[]) =>
        left.every((value, index) => Math.abs(value - right[index]!) < 1e-6);
      expect(close(first.embeddings[0]!, direct.embeddings[0]!)).toBe(true);
      expect(close(first.embeddings[2]!, direct.embeddings[0]!)).toBe(true);
      expect(close(second.embeddings[0]!, direct.embeddings[1]!)).toBe(true);
      expect(close(second.embeddings[1]!, direct.embeddings[2]!)).toBe(true);
      // Another model's cache entries are not this model's.
      const other = new Recording();
      await new CachingEmbedder(other, sql).embed({ texts: ['alpha'], purpose: 'document' });
      expect(other.calls).toEqual([['alpha']]);
    });

    it('never caches queries', async () => {
      const inner = new Recording();
      const cached = new CachingEmbedder(inner, sql);
      await cached.embed({ texts: ['what is alpha?'], purpose: 'query' });
      await cached.embed({ texts: ['what is alpha?'], purpose: 'query' });
      expect(inner.calls).toHaveLength(2);
    });
  });
}
