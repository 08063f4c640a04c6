/** Public entry point of the core package: apps import from here, never from internals. */
export * from './errors/index.js';
export * from './config/index.js';
export * from './telemetry/index.js';
export * from './db/index.js';
export * from './embed/index.js';
export * from './ingest/index.js';
export * from './store/index.js';
export * from './retrieve/index.js';
export * from './runtime/index.js';
export * from './eval/index.js';
export * from './graph/index.js';
export * from './llm/index.js';
export * from './tools/index.js';
export * from './cache/index.js';
export * from './orchestrator/index.js';
export * from './queue/index.js';
export * from './hyde/index.js';
export { openScratchDatabase } from './bench/index.js';
