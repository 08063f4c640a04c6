import { PostgresAnswerCache, RedisAnswerCache, type AnswerCache } from '../cache/index.js';
import { ingestMode, type Config } from '../config/index.js';
import { ConversationStore } from '../conversation/index.js';
import { CorpusVersions, migrate, openSql, PostgresSql, ReadRoutingSql, type Sql } from '../db/index.js';
import { CachingEmbedder, createEmbedder, DeterministicEmbedder, type Embedder } from '../embed/index.js';
import {
  BestEffortExtractor,
  CachingExtractor,
  DocPageExtractor,
  LlmEntityExtractor,
  Neo4jGraphStore,
  NumberedEntityExtractor,
  OfflineEntityExtractor,
  PostgresGraphStore,
  type GraphStore,
} from '../graph/index.js';
import { CachingQuestionWriter, LlmQuestionWriter } from '../hyde/index.js';
import { DEFAULT_BATCH_LIMITS, EMBEDDED_BATCH_LIMITS, IngestPipeline } from '../ingest/index.js';
import { createLlm, type Llm } from '../llm/index.js';
import { RagOrchestrator } from '../orchestrator/index.js';
import { IngestQueue, runningJob, STAGE_PROGRESS } from '../queue/index.js';
import { createRetriever, type HybridRetriever } from '../retrieve/index.js';
import { ChunkReader, CorpusStore, JobStore, recordIngestStage } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { calcTool, HttpFetchTool, lookupTool, ToolRouter } from '../tools/index.js';

/** Everything a process (API, worker, CLI) needs, wired once from the config. */
export interface RagRuntime {
  config: Config;
  logger: Logger;
  sql: Sql;
  /**
   * With DATABASE_READ_URL: what search and answer retrieval read through (replica when it has
   * replayed what the read needs, else the primary); null without a replica.
   */
  readRouting: ReadRoutingSql | null;
  /** The corpus versions this process wrote, per workspace: its own reads wait for them. */
  corpusVersions: CorpusVersions;
  embedder: Embedder;
  store: CorpusStore;
  /** Chunk and document reads for display, on the primary (a textbook read, a document's chunks). */
  chunks: ChunkReader;
  graph: GraphStore;
  pipeline: IngestPipeline;
  retriever: HybridRetriever;
  /** Null when RAG_LLM=offline: every stage then takes its model-free path. */
  llm: Llm | null;
  tools: ToolRouter;
  /** Null when AGENTIC_RAG_CACHE=false. */
  cache: AnswerCache | null;
  orchestrator: RagOrchestrator;
  /** ragAnswer's conversations (written on the primary: a follow-up reads the turn just written). */
  conversations: ConversationStore;
  jobs: JobStore;
  /** The ingest queue when ingestion goes through workers (AGENTIC_RAG_INGEST_MODE), else null. */
  queue: IngestQueue | null;
  close(): Promise<void>;
}

export interface CreateRuntimeOptions {
  config: Config;
  logger?: Logger;
  /** Use this database instead of opening one from the config (tests, benchmarks). */
  sql?: Sql;
  embedder?: Embedder;
  /** Record how far each document's ingest got (rag_ingest_stages): the queue worker does. */
  recordStages?: boolean;
  /**
   * Connect the ingest queue when AGENTIC_RAG_INGEST_MODE sends ingestion through it (the API and
   * rag:ingest); other commands never open a queue connection.
   */
  queue?: boolean;
}

/** Opens the database, applies pending migrations and checks the embedder fits the schema. */
export async function createRuntime(options: CreateRuntimeOptions): Promise<RagRuntime> {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const sql = options.sql ?? (await openSql(config, logger));
  let graph: GraphStore | null = null;
  let cache: AnswerCache | null = null;
  let queue: IngestQueue | null = null;
  let readRouting: ReadRoutingSql | null = null;
  try {
    await migrate(sql, { logger });
    const base = options.embedder ?? createEmbedder(config, logger);
    // Remote embeddings cost money and time: remember them, so a retried job does not pay twice.
    const cacheEmbeddings =
      config.RAG_EMBEDDING_CACHE === 'on' ||
      (config.RAG_EMBEDDING_CACHE === 'auto' && !(base instanceof DeterministicEmbedder));
    const embedder = cacheEmbeddings ? new CachingEmbedder(base, sql) : base;
    graph = config.NEO4J_URI
      ? await Neo4jGraphStore.open({
          uri: config.NEO4J_URI,
          user: config.NEO4J_USER,
          password: config.NEO4J_PASSWORD ?? '',
        })
      : new PostgresGraphStore(sql);
    const store = new CorpusStore(sql, {
      graph,
      indexBuild: {
        memoryMb: config.VECTOR_INDEX_BUILD_MEMORY_MB,
        workers: config.VECTOR_INDEX_BUILD_WORKERS,
      },
    });
    await store.assertEmbeddingDimensions(embedder.modelId, embedder.dimensions);
    await store.ensureIndexes();
    const segmented = await store.completeLexicalSegments();
    if (segmented.length > 0) logger.info('lexical segments built', { workspaces: segmented.length });
    const llm = createLlm(config, {
      timeoutMs: config.RAG_LLM_TIMEOUT_MS,
      maxRetries: config.RAG_LLM_MAX_RETRIES,
      logger,
    });
    const offlineExtractors = [
      new OfflineEntityExtractor(),
      new NumberedEntityExtractor(),
      new DocPageExtractor(),
    ];
    // A worker may run extraction as a job of its own: its output then waits in the stage cache.
    const extractors = [
      ...(options.recordStages
        ? offlineExtractors.map((extractor) => new CachingExtractor(extractor, sql))
        : offlineExtractors),
      // The model's entities cost a call per document: always cached by content, and a failure
      // leaves the document with the offline facts (the cache sits inside, so it is not remembered).
      ...(config.RAG_INGEST_LLM_ENTITIES && llm
        ? [
            new BestEffortExtractor(
              new CachingExtractor(new LlmEntityExtractor({ llm, logger }), sql),
              logger,
            ),
          ]
        : []),
    ];
    const pipeline = new IngestPipeline({
      store,
      embedder,
      maxTokens: config.CHUNK_MAX_TOKENS,
      secrets: config.INGEST_SECRETS,
      overlapTokens: config.CHUNK_OVERLAP_TOKENS,
      batch: sql.backend === 'pglite' ? EMBEDDED_BATCH_LIMITS : DEFAULT_BATCH_LIMITS,
      extractors,
      ...(config.RAG_INGEST_HYDE && llm
        ? {
            questions: new CachingQuestionWriter(
              new LlmQuestionWriter({ llm, questions: config.RAG_INGEST_HYDE_QUESTIONS }),
              sql,
            ),
          }
        : {}),
      logger,
      ...(options.recordStages
        ? {
            onStage: async (event) => {
              // Inside a queued job, the stage is also the job's progress.
              const job = runningJob.getStore();
              await recordIngestStage(sql, event, job?.id ?? null);
              await job?.progress(STAGE_PROGRESS[event.stage] ?? 0);
            },
          }
        : {}),
    });
    // Only what reads chunks to search and answer goes through the replica; writes, the answer
    // cache, keys, audit and jobs stay on the primary. Migrations reach the replica by replication.
    readRouting = config.DATABASE_READ_URL
      ? new ReadRoutingSql({
          primary: sql,
          replica: new PostgresSql({
            connectionString: config.DATABASE_READ_URL,
            maxConnections: config.DATABASE_POOL_MAX,
            applicationName: 'agentic-rag-replica',
          }),
          logger,
        })
      : null;
    const readSql = readRouting ?? sql;
    const readGraph =
      readRouting && graph instanceof PostgresGraphStore ? new PostgresGraphStore(readSql) : graph;
    const retriever = createRetriever(config, readSql, embedder, logger, readGraph);
    const chunks = new ChunkReader(sql);
    const tools = new ToolRouter({
      tools: [
        calcTool,
        lookupTool(chunks, graph),
        new HttpFetchTool({
          enabled: config.AGENTIC_RAG_ENABLE_HTTP_FETCH,
          allowedDomains: config.AGENTIC_RAG_HTTP_FETCH_ALLOWLIST,
        }),
      ],
      allowed: ['calc', 'lookup', 'http_fetch'],
      logger,
    });
    // The answer cache wants an evicting Redis; BullMQ's must never evict, hence its own URL.
    const cacheUrl = config.CACHE_REDIS_URL ?? config.REDIS_URL;
    cache = !config.AGENTIC_RAG_CACHE
      ? null
      : cacheUrl
        ? new RedisAnswerCache(cacheUrl)
        : new PostgresAnswerCache(sql);
    // The orchestrator's own reads (the corpus version its cache key holds, the context's chunks)
    // must come from the side its retrieval reads, hence the routing Sql.
    const orchestrator = new RagOrchestrator({
      config,
      chunks: new ChunkReader(readSql),
      retriever,
      graph: readGraph,
      llm,
      tools,
      cache,
      logger,
    });
    const jobs = new JobStore(sql);
    const conversations = new ConversationStore(sql, {
      maxTurns: config.AGENTIC_RAG_CONVERSATION_TURNS,
      ttlSeconds: config.AGENTIC_RAG_CONVERSATION_TTL_SECONDS,
    });
    queue = options.queue === true && ingestMode(config) === 'queue' ? new IngestQueue(config, jobs) : null;
    return {
      config,
      logger,
      sql,
      readRouting,
      corpusVersions: new CorpusVersions(),
      embedder,
      store,
      chunks,
      graph,
      pipeline,
      retriever,
      llm,
      tools,
      cache,
      orchestrator,
      conversations,
      jobs,
      queue,
      close: async () => {
        await queue?.close();
        await cache?.close();
        await graph!.close();
        await readRouting?.close();
        if (!options.sql) await sql.close();
      },
    };
  } catch (error) {
    await queue?.close();
    await cache?.close();
    await graph?.close();
    await readRouting?.close();
    if (!options.sql) await sql.close();
    throw error;
  }
}
