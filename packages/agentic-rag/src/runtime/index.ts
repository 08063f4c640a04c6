export { createRuntime } from './create-runtime.js';
export type { CreateRuntimeOptions, RagRuntime } from './create-runtime.js';
