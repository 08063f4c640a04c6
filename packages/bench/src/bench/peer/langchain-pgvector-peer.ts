import { readFile } from 'node:fs/promises';
import { Document } from '@langchain/core/documents';
import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { discoverFiles, type Embedder } from '@agentic-rag/core';
import { chunkFileTexts, type ChunkFileOptions } from '../corpora/chunk-file.js';
import { RuntimeEmbeddings } from './runtime-embeddings.js';

/** Documents per `addDocuments` call, as LangChain's own examples batch (and its insert chunk size). */
export const PEER_BATCH_SIZE = 500;
const TABLE = 'langchain_pg_embedding';

export interface PeerIngestOptions {
  /** The corpus folder our pipeline ingests. */
  directory: string;
  chunker: ChunkFileOptions;
  batchSize?: number;
  onProgress?: (progress: { filesDone: number; filesTotal: number; chunks: number }) => void;
}

export interface PeerIngestSummary {
  documents: number;
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
}

/**
 * LangChain.js's `PGVectorStore` as a LangChain user sets it up: one table (uuid, text, jsonb
 * metadata, vector(dimensions)), cosine distance, no ANN index (the class creates none unless asked),
 * documents added in batches. Ours and the peer store the same chunk texts (our loader and chunker
 * cut the files for both) embedded by the same Embedder.
 */
export class LangchainPgvectorPeer {
  private constructor(private readonly store: PGVectorStore) {}

  /** Opens (and creates when missing) the peer's table in the database at `databaseUrl`. */
  static async open(options: { databaseUrl: string; embedder: Embedder }): Promise<LangchainPgvectorPeer> {
    const store = await PGVectorStore.initialize(new RuntimeEmbeddings(options.embedder), {
      postgresConnectionOptions: { connectionString: options.databaseUrl, max: 4 },
      tableName: TABLE,
      distanceStrategy: 'cosine',
      dimensions: options.embedder.dimensions,
      chunkSize: PEER_BATCH_SIZE,
    });
    return new LangchainPgvectorPeer(store);
  }

  /**
   * Reads, chunks, embeds and stores every file of the corpus, timed end to end as ours is (files
   * in, rows committed): chunks are sent to `addDocuments` in batches of `batchSize`.
   */
  async ingest(options: PeerIngestOptions): Promise<PeerIngestSummary> {
    const started = performance.now();
    const batchSize = options.batchSize ?? PEER_BATCH_SIZE;
    const { files } = await discoverFiles(options.directory);
    let batch: Document[] = [];
    let chunks = 0;
    let documents = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await this.store.addDocuments(batch);
      chunks += batch.length;
      batch = [];
    };
    for (const [index, file] of files.entries()) {
      const text = await readFile(file.absolutePath, 'utf8');
      const texts = chunkFileTexts(file.relativePath, text, options.chunker);
      if (texts.length > 0) documents++;
      for (const [chunk, pageContent] of texts.entries()) {
        batch.push(new Document({ pageContent, metadata: { source: file.relativePath, chunk } }));
        if (batch.length >= batchSize) await flush();
      }
      options.onProgress?.({ filesDone: index + 1, filesTotal: files.length, chunks: chunks + batch.length });
    }
    await flush();
    const seconds = (performance.now() - started) / 1000;
    return { documents, chunks, seconds, chunksPerSecond: chunks / seconds };
  }

  /** Stored rows. */
  async count(): Promise<number> {
    const result = await this.store.pool.query<{ count: string }>(`SELECT count(*) AS count FROM ${TABLE}`);
    return Number(result.rows[0]!.count);
  }

  /** What a LangChain user calls: embeds the query, then an exact cosine scan for the k nearest. */
  async search(query: string, k: number): Promise<number> {
    return (await this.store.similaritySearch(query, k)).length;
  }

  async vacuumAnalyze(): Promise<void> {
    await this.store.pool.query(`VACUUM ANALYZE ${TABLE}`);
  }

  async diskBytes(): Promise<number> {
    const result = await this.store.pool.query<{ bytes: string }>(
      'SELECT pg_database_size(current_database()) AS bytes',
    );
    return Number(result.rows[0]!.bytes);
  }

  async close(): Promise<void> {
    await this.store.end();
  }
}
