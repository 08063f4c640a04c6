export { createJsonLogger, silentLogger } from './logger.js';
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from './logger.js';
