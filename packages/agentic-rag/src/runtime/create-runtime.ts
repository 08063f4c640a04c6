import type { Config } from '../config/index.js';
import { migrate, openSql, type Sql } from '../db/index.js';
import { createEmbedder, type Embedder } from '../embed/index.js';
import {
  Neo4jGraphStore,
  NumberedEntityExtractor,
  OfflineEntityExtractor,
  PostgresGraphStore,
  type GraphStore,
} from '../graph/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { createRetriever, type HybridRetriever } from '../retrieve/index.js';
import { CorpusStore } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';

/** Everything a process (API, worker, CLI) needs, wired once from the config. */
export interface RagRuntime {
  config: Config;
  logger: Logger;
  sql: Sql;
  embedder: Embedder;
  store: CorpusStore;
  graph: GraphStore;
  pipeline: IngestPipeline;
  retriever: HybridRetriever;
  close(): Promise<void>;
}

export interface CreateRuntimeOptions {
  config: Config;
  logger?: Logger;
  /** Use this database instead of opening one from the config (tests, benchmarks). */
  sql?: Sql;
  embedder?: Embedder;
}

/** Opens the database, applies pending migrations and checks the embedder fits the schema. */
export async function createRuntime(options: CreateRuntimeOptions): Promise<RagRuntime> {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const sql = options.sql ?? (await openSql(config));
  let graph: GraphStore | null = null;
  try {
    await migrate(sql, { logger });
    const embedder = options.embedder ?? createEmbedder(config, logger);
    graph = config.NEO4J_URI
      ? await Neo4jGraphStore.open({
          uri: config.NEO4J_URI,
          user: config.NEO4J_USER,
          password: config.NEO4J_PASSWORD ?? '',
        })
      : new PostgresGraphStore(sql);
    const store = new CorpusStore(sql, { graph });
    await store.assertEmbeddingDimensions(embedder.modelId, embedder.dimensions);
    await store.ensureVectorIndex();
    const pipeline = new IngestPipeline({
      store,
      embedder,
      maxTokens: config.CHUNK_MAX_TOKENS,
      overlapTokens: config.CHUNK_OVERLAP_TOKENS,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
      logger,
    });
    return {
      config,
      logger,
      sql,
      embedder,
      store,
      graph,
      pipeline,
      retriever: createRetriever(config, sql, embedder, logger, graph),
      close: async () => {
        await graph!.close();
        if (!options.sql) await sql.close();
      },
    };
  } catch (error) {
    await graph?.close();
    if (!options.sql) await sql.close();
    throw error;
  }
}
