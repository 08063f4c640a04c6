export { createRuntime } from './create-runtime.js';
export type { CreateRuntimeOptions, RagRuntime } from './create-runtime.js';
export { environmentConfig, EXIT, loadDotEnv, serviceConfig } from './service-config.js';
export { listen, runCli, runService } from './entry-point.js';
export { logFilePath, serviceLog } from './service-log.js';
export type { ServiceLog } from './service-log.js';
export { consoleUrl, readyLine } from './ready-line.js';
export type { ReadyFacts } from './ready-line.js';
export { warmLexicon } from '../lexicon/index.js';
