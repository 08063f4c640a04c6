import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import {
  createJsonLogger,
  createRuntime,
  ErrorCode,
  isRagError,
  loadConfig,
  redactConfig,
  startTracing,
  watchQueue,
  type Config,
  type Logger,
  type RagRuntime,
} from '@agentic-rag/core';
import { createApi } from './server.js';

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`${isRagError(error) ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const logger = createJsonLogger({ level: config.LOG_LEVEL, write: (line) => process.stdout.write(line) });
  logger.info('starting', { event: 'api-starting', config: redactConfig(config) });
  const tracing = startTracing({ config, serviceName: 'agentic-rag-api' });

  const runtime = await createRuntime({ config, logger, queue: true });
  const { queue } = runtime;
  const unwatch = queue ? watchQueue(() => queue.counts()) : () => {};
  const { server, state, stop: stopGraphql } = await createApi(runtime);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, resolve);
    });
  } catch (error) {
    unwatch();
    await runtime.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `port ${config.PORT} is already in use (set PORT)`
        : `cannot listen: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const { port } = server.address() as AddressInfo;
  logger.info(`listening on http://${config.HOST}:${port}`, {
    event: 'api-listening',
    port,
    backend: runtime.sql.backend,
    traces: tracing.exporter,
  });

  // Stopping during the start-up ingest aborts it and waits for it, so the database is never
  // closed under a running write.
  const startup = new AbortController();
  let ingesting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { event: 'api-stopping', signal });
    startup.abort();
    await ingesting.catch(() => {});
    await new Promise((resolve) => server.close(resolve));
    await stopGraphql();
    unwatch();
    await runtime.close();
    await tracing.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (config.AGENTIC_RAG_INGEST_ON_START) {
    ingesting = ingestCorpus(config, runtime, logger, startup.signal);
    try {
      await ingesting;
    } catch (error) {
      if (startup.signal.aborted) return;
      throw error;
    }
  }
  state.ready = true;
  logger.info('ready', { event: 'api-ready' });
}

/** The quick start's promise: the sample corpus is searchable as soon as the service is ready. */
async function ingestCorpus(config: Config, runtime: RagRuntime, logger: Logger, signal: AbortSignal) {
  const workspaceId = config.AGENTIC_RAG_WORKSPACE;
  const summary = await runtime.pipeline.ingestSources({
    workspaceId,
    sources: [config.AGENTIC_RAG_CORPUS_DIR],
    signal,
  });
  logger.info('corpus ingested', {
    event: 'corpus-ingested',
    workspaceId,
    source: config.AGENTIC_RAG_CORPUS_DIR,
    documents: summary.documents,
    chunks: summary.chunks,
    seconds: Number(summary.seconds.toFixed(2)),
    corpusVersion: summary.corpusVersion,
    failures: summary.failures,
  });
  const query = 'How do I create a location?';
  const {
    hits: [top],
  } = await runtime.retriever.retrieve({ workspaceId, query, k: 1, signal });
  logger.info('smoke search', {
    event: 'smoke-search',
    query,
    top: top
      ? { sourcePath: top.sourcePath, section: top.sectionPath, score: Number(top.score.toFixed(3)) }
      : null,
  });
}

main().catch((error: unknown) => {
  const message = isRagError(error)
    ? `[${error.code}] ${error.message}`
    : String((error as Error)?.message ?? error);
  process.stderr.write(`api failed to start: ${message}\n`);
  process.exit(isRagError(error) && error.code === ErrorCode.INVALID_CONFIG ? 2 : 1);
});
