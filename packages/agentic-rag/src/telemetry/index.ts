export { createJsonLogger, silentLogger } from './logger.js';
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from './logger.js';
export {
  answersTotal,
  cacheLookups,
  crawlRequests,
  entityExtractionFailures,
  routedReads,
  graphqlOperationDuration,
  httpRequestDuration,
  ingestBinaryFiles,
  ingestChunks,
  ingestDocuments,
  ingestPdfPages,
  jobDuration,
  jobsTotal,
  metricsRegistry,
  retrievalScore,
  stageDuration,
  toolCalls,
  watchQueue,
} from './metrics.js';
export type { QueueCounts } from './metrics.js';
export { startTracing } from './tracing.js';
export type { Tracing, TracingOptions } from './tracing.js';
export { redactFields, redactText, REDACTED } from './redact.js';
