import { RagService, createJsonLogger, redactConfig, startTracing, watchQueue } from '@agentic-rag/core';
import { createRuntime, runService, serviceConfig, startDataPlane } from '@agentic-rag/core/runtime';
import { startMetricsServer } from './metrics-server.js';

/**
 * `pnpm worker`: BullMQ workers for the ingest queue. No logic of its own: the job handlers are
 * the pipeline the inline mode runs. SIGTERM/SIGINT stop taking jobs and let running ones finish.
 * Metrics (job outcomes, queue depth, dead letters) on AGENTIC_RAG_WORKER_METRICS_PORT; traces
 * through the OTEL_* variables.
 */
async function main(): Promise<void> {
  const config = serviceConfig();
  const logger = createJsonLogger({ level: config.LOG_LEVEL, write: (line) => process.stdout.write(line) });
  if (!config.REDIS_URL && !config.REDIS_CLUSTER_NODES) {
    process.stderr.write(
      'pnpm worker needs REDIS_URL or REDIS_CLUSTER_NODES (without a queue, ingestion runs inline: pnpm rag:ingest)\n',
    );
    process.exit(2);
  }
  logger.info('starting', { event: 'worker-starting', config: redactConfig(config) });
  const tracing = startTracing({ config, serviceName: 'agentic-rag-worker' });
  let stopping = false;
  let service: RagService | null = null;
  // Listening first: a taken port stops the worker before it takes any job.
  const metrics = await startMetricsServer({
    host: config.HOST,
    port: config.AGENTIC_RAG_WORKER_METRICS_PORT,
    running: () => !stopping,
    entitled: async (authorization) => {
      if (config.AGENTIC_RAG_AUTH === 'off') return true;
      if (!service) return false;
      if (service.isMetricsToken(authorization)) return true;
      // The same rule as the API's /metrics: the service decides who may read them.
      try {
        service.authorize(await service.authenticate(authorization), 'metrics');
        return true;
      } catch {
        return false;
      }
    },
  });
  const runtime = await createRuntime({ config, logger, recordStages: true });
  service = new RagService(runtime, { limiter: null });
  const { worker, counts, close } = await startDataPlane(runtime);
  worker.on('completed', (job) => logger.info('job completed', { event: 'job-completed', jobId: job.id }));
  const unwatch = watchQueue(counts);
  logger.info('worker ready', {
    event: 'worker-ready',
    queue: config.AGENTIC_RAG_QUEUE_NAME,
    concurrency: config.AGENTIC_RAG_WORKER_CONCURRENCY,
    metricsPort: metrics.port,
    traces: tracing.exporter,
  });

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { event: 'worker-stopping', signal });
    unwatch();
    await close();
    await metrics.close();
    await runtime.close();
    await tracing.shutdown();
    logger.info('stopped', { event: 'worker-stopped' });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

runService('worker', main);
