export { createRuntime } from './create-runtime.js';
export type { CreateRuntimeOptions, RagRuntime } from './create-runtime.js';
export { environmentConfig, EXIT, loadDotEnv, serviceConfig } from './service-config.js';
export { listen, runService } from './entry-point.js';
