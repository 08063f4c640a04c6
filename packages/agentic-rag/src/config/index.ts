export { loadConfig, redactConfig } from './load-config.js';
export type { Env } from './load-config.js';
export { configSchema } from './schema.js';
export type { Config } from './schema.js';
