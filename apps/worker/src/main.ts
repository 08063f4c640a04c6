import { existsSync } from 'node:fs';
import {
  createJsonLogger,
  createRuntime,
  ErrorCode,
  isRagError,
  loadConfig,
  redactConfig,
  startIngestWorker,
  type Config,
} from '@agentic-rag/core';

/**
 * `pnpm worker`: BullMQ workers for the ingest queue. No logic of its own: the job handlers are
 * the pipeline the inline mode runs. SIGTERM/SIGINT stop taking jobs and let running ones finish.
 */
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
  if (!config.REDIS_URL) {
    process.stderr.write(
      'pnpm worker needs REDIS_URL (without it, ingestion runs inline: pnpm rag:ingest)\n',
    );
    process.exit(2);
  }
  logger.info('starting', { event: 'worker-starting', config: redactConfig(config) });
  const runtime = await createRuntime({ config, logger, recordStages: true });
  const { worker, close } = await startIngestWorker(runtime);
  worker.on('completed', (job) => logger.info('job completed', { event: 'job-completed', jobId: job.id }));
  logger.info('worker ready', {
    event: 'worker-ready',
    queue: config.AGENTIC_RAG_QUEUE_NAME,
    concurrency: config.AGENTIC_RAG_WORKER_CONCURRENCY,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { event: 'worker-stopping', signal });
    await close();
    await runtime.close();
    logger.info('stopped', { event: 'worker-stopped' });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  const message = isRagError(error)
    ? `[${error.code}] ${error.message}`
    : String((error as Error)?.message ?? error);
  process.stderr.write(`worker failed to start: ${message}\n`);
  process.exit(isRagError(error) && error.code === ErrorCode.INVALID_CONFIG ? 2 : 1);
});
