export { createJsonLogger, silentLogger } from './logger.js';
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from './logger.js';
export { answersTotal, cacheLookups, metricsRegistry, stageDuration } from './metrics.js';
