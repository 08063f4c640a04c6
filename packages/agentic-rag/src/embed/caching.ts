import { createHash } from 'node:crypto';
import type { Sql } from '../db/index.js';
import { cacheLookups } from '../telemetry/index.js';
import type { EmbedOptions, EmbedResult, Embedder } from './embedder.js';

/**
 * An embedder that remembers: document texts it has embedded before (by model and text hash)
 * come from `rag_embedding_cache`, and only the rest reach the wrapped embedder. A queued ingest
 * that failed after embedding, or a worker killed mid-document, does not pay the provider again
 * when the job is retried. Query embeddings are not cached: they are one text, and rarely repeat.
 */
export class CachingEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: Embedder,
    private readonly sql: Sql,
  ) {
    this.modelId = inner.modelId;
    this.dimensions = inner.dimensions;
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    if (options.purpose === 'query' || options.texts.length === 0) return this.inner.embed(options);
    const hashes = options.texts.map((text) => createHash('sha256').update(text).digest('hex'));
    const cached = await this.sql.query<{ text_hash: string; embedding: number[] }>(
      'SELECT text_hash, embedding FROM rag_embedding_cache WHERE model = $1 AND text_hash = ANY($2::text[])',
      [this.modelId, [...new Set(hashes)]],
    );
    const known = new Map(cached.rows.map((row) => [row.text_hash, row.embedding.map(Number)]));
    const missing = [...new Set(hashes.filter((hash) => !known.has(hash)))];
    cacheLookups.inc({ cache: 'embedding', result: 'hit' }, known.size);
    cacheLookups.inc({ cache: 'embedding', result: 'miss' }, missing.length);
    let tokens: number | undefined;
    if (missing.length > 0) {
      const texts = missing.map((hash) => options.texts[hashes.indexOf(hash)]!);
      const fresh = await this.inner.embed({ ...options, texts });
      tokens = fresh.tokens;
      missing.forEach((hash, index) => known.set(hash, fresh.embeddings[index]!));
      await this.sql.query(
        `INSERT INTO rag_embedding_cache (model, text_hash, embedding)
         SELECT $1, h, e FROM unnest($2::text[], $3::text[]) AS t(h, e_text), LATERAL (SELECT e_text::real[] AS e) x
         ON CONFLICT DO NOTHING`,
        [this.modelId, missing, missing.map((hash) => `{${known.get(hash)!.join(',')}}`)],
      );
    }
    return {
      embeddings: hashes.map((hash) => known.get(hash)!),
      ...(tokens !== undefined ? { tokens } : {}),
    };
  }

  async uncached(texts: readonly string[]): Promise<string[]> {
    const hashes = texts.map((text) => createHash('sha256').update(text).digest('hex'));
    const cached = await this.sql.query<{ text_hash: string }>(
      'SELECT text_hash FROM rag_embedding_cache WHERE model = $1 AND text_hash = ANY($2::text[])',
      [this.modelId, [...new Set(hashes)]],
    );
    const known = new Set(cached.rows.map((row) => row.text_hash));
    return texts.filter((_, index) => !known.has(hashes[index]!));
  }
}
