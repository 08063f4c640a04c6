import { existsSync } from 'node:fs';
import { localOperator, RagService, redactConfig, startTracing, type Logger } from '@agentic-rag/core';
import {
  consoleUrl,
  createRuntime,
  listen,
  readyLine,
  warmLexicon,
  runService,
  serviceConfig,
  serviceLog,
  type ReadyFacts,
} from '@agentic-rag/core/runtime';
import { createApi } from './server.js';

async function main(): Promise<void> {
  const config = serviceConfig();
  // LOG_FORMAT=pretty (the default): the configuration and every JSON line go to LOG_FILE, and the
  // terminal gets one line once the service is ready.
  const log = serviceLog(config);
  const { logger } = log;
  logger.info('starting', { event: 'api-starting', config: redactConfig(config), logFile: log.file });
  const tracing = startTracing({ config, serviceName: 'agentic-rag-api' });

  const runtime = await createRuntime({ config, logger, queue: true });
  const service = new RagService(runtime);
  const unwatch = service.watchQueueDepth();
  // The quick start stays two commands with auth on: the first start mints an admin key.
  let adminKey: ReadyFacts['adminKey'] = { none: 'auth-off' };
  if (service.authEnabled) {
    const { path } = await service.bootstrapAdminKey();
    // Keys made earlier may have replaced the first one, and its file been deleted as advised.
    adminKey = existsSync(path) ? { file: path } : { none: 'not-on-disk' };
  } else logger.warn('AGENTIC_RAG_AUTH=off: every caller is an admin (loopback only)', { event: 'auth-off' });
  const { server, state, stop: stopGraphql } = await createApi(service);
  let port: number;
  try {
    ({ port } = await listen(server, {
      port: config.PORT,
      host: config.HOST,
      what: 'port',
      variable: 'PORT',
    }));
  } catch (error) {
    unwatch();
    await service.close();
    await runtime.close();
    throw error;
  }
  logger.info(`listening on http://${config.HOST}:${port}`, {
    event: 'api-listening',
    port,
    backend: service.backend,
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
    await service.close();
    await runtime.close();
    await tracing.shutdown();
    log.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (config.AGENTIC_RAG_INGEST_ON_START) {
    ingesting = ingestCorpus(service, logger, startup.signal);
    try {
      await ingesting;
    } catch (error) {
      if (startup.signal.aborted) return;
      throw error;
    }
  }
  const {
    workspaceId,
    corpus: { documents, chunks },
  } = await service.status();
  const facts: ReadyFacts = {
    url: consoleUrl(config.HOST, port),
    adminKey,
    corpus: { workspaceId, documents, chunks },
    logFile: log.file,
  };
  // The first question should not wait for the dictionaries the question understanding reads.
  warmLexicon();
  state.ready = true;
  logger.info('ready', { event: 'api-ready', ...facts });
  log.announce(readyLine(facts));
}

/**
 * The quick start's promise: the sample corpus is searchable as soon as the service is ready, and a
 * smoke search shows it whenever the corpus changed. It runs as the local operator, through the
 * service like any ingest: audited, and listed with the workspace's jobs.
 */
async function ingestCorpus(service: RagService, logger: Logger, signal: AbortSignal) {
  const { config } = service;
  const operator = localOperator('startup');
  const workspaceId = config.AGENTIC_RAG_WORKSPACE;
  // Inline even where workers run: the service is ready only once the corpus is searchable.
  const { summary } = await service.ingest(
    operator,
    { workspaceId, paths: [config.AGENTIC_RAG_CORPUS_DIR] },
    { inline: true, signal, logger },
  );
  if (!summary) return;
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
  // A restart over an unchanged corpus searches what the last start already searched: skipping it
  // takes the first query's warm-up (~0.5 s) off every restart.
  const { added, updated, removed } = summary.documents;
  if (added + updated + removed === 0) return;
  const query = 'How do I create a location?';
  const {
    hits: [top],
  } = await service.search(operator, { workspaceId, query, k: 1 }, { signal, logger });
  logger.info('smoke search', {
    event: 'smoke-search',
    query,
    top: top
      ? { sourcePath: top.sourcePath, section: top.sectionPath, score: Number(top.score.toFixed(3)) }
      : null,
  });
}

runService('api', main);
