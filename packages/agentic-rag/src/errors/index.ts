export { ErrorCode, ERROR_CODE_INFO, RagError, isRagError, toRagError } from './rag-error.js';
export type { ErrorCodeInfo, RagErrorOptions } from './rag-error.js';
export { GRAPHQL_REFUSALS } from './reference.js';
