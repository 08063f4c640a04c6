export { createJsonLogger, silentLogger } from './logger.js';
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from './logger.js';
export {
  answersTotal,
  cacheLookups,
  routedReads,
  graphqlOperationDuration,
  httpRequestDuration,
  ingestChunks,
  ingestDocuments,
  jobDuration,
  jobsTotal,
  metricsRegistry,
  retrievalScore,
  stageDuration,
  watchQueue,
} from './metrics.js';
export type { QueueCounts } from './metrics.js';
export { startTracing } from './tracing.js';
export type { Tracing, TracingOptions } from './tracing.js';
export { redactFields, redactText, REDACTED } from './redact.js';
