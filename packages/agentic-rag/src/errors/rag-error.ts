/**
 * Error codes are the public contract: clients branch on them, so a code is never renamed or
 * reused. Add new ones at the end and map them in ERROR_CODE_INFO.
 */
export const ErrorCode = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_CONFIG: 'INVALID_CONFIG',
  NOT_FOUND: 'NOT_FOUND',
  RAG_DISABLED: 'RAG_DISABLED',
  UNSUPPORTED_FILE_TYPE: 'UNSUPPORTED_FILE_TYPE',
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  PARSE_FAILED: 'PARSE_FAILED',
  EMBEDDER_UNAVAILABLE: 'EMBEDDER_UNAVAILABLE',
  EMBEDDING_DIMENSION_MISMATCH: 'EMBEDDING_DIMENSION_MISMATCH',
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  MIGRATION_FAILED: 'MIGRATION_FAILED',
  ABORTED: 'ABORTED',
  INTERNAL: 'INTERNAL',
  EMBEDDER_REQUEST_REJECTED: 'EMBEDDER_REQUEST_REJECTED',
  TRANSACTION_CONFLICT: 'TRANSACTION_CONFLICT',
  RERANKER_UNAVAILABLE: 'RERANKER_UNAVAILABLE',
  LLM_UNAVAILABLE: 'LLM_UNAVAILABLE',
  LLM_REQUEST_REJECTED: 'LLM_REQUEST_REJECTED',
  TOOL_NOT_ALLOWED: 'TOOL_NOT_ALLOWED',
  TOOL_FAILED: 'TOOL_FAILED',
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  FETCH_BLOCKED: 'FETCH_BLOCKED',
  WORKSPACE_NOT_FOUND: 'WORKSPACE_NOT_FOUND',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'RATE_LIMITED',
  SECRET_REFUSED: 'SECRET_REFUSED',
  SOURCE_OUTSIDE_ROOT: 'SOURCE_OUTSIDE_ROOT',
  SUPERSEDED: 'SUPERSEDED',
  DATA_DIR_DAMAGED: 'DATA_DIR_DAMAGED',
  INVALID_PARAMETER: 'INVALID_PARAMETER',
  ROBOTS_DISALLOWED: 'ROBOTS_DISALLOWED',
  LLM_OUTPUT_INVALID: 'LLM_OUTPUT_INVALID',
  PAGE_TOO_LARGE: 'PAGE_TOO_LARGE',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  DOCUMENT_ENCRYPTED: 'DOCUMENT_ENCRYPTED',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorCodeInfo {
  /** GraphQL `extensions.code`. */
  graphql: string;
  httpStatus: number;
  /** Whether retrying the same call unchanged may succeed (drives queue retries). */
  retryable: boolean;
}

/** Exhaustive on purpose: adding a code without mapping it is a compile error. */
export const ERROR_CODE_INFO: Record<ErrorCode, ErrorCodeInfo> = {
  INVALID_INPUT: { graphql: 'BAD_USER_INPUT', httpStatus: 400, retryable: false },
  INVALID_CONFIG: { graphql: 'INVALID_CONFIG', httpStatus: 500, retryable: false },
  NOT_FOUND: { graphql: 'NOT_FOUND', httpStatus: 404, retryable: false },
  RAG_DISABLED: { graphql: 'RAG_DISABLED', httpStatus: 503, retryable: false },
  UNSUPPORTED_FILE_TYPE: { graphql: 'UNSUPPORTED_FILE_TYPE', httpStatus: 415, retryable: false },
  FILE_UNREADABLE: { graphql: 'FILE_UNREADABLE', httpStatus: 422, retryable: false },
  PARSE_FAILED: { graphql: 'PARSE_FAILED', httpStatus: 422, retryable: false },
  EMBEDDER_UNAVAILABLE: { graphql: 'EMBEDDER_UNAVAILABLE', httpStatus: 503, retryable: true },
  EMBEDDING_DIMENSION_MISMATCH: {
    graphql: 'EMBEDDING_DIMENSION_MISMATCH',
    httpStatus: 500,
    retryable: false,
  },
  STORE_UNAVAILABLE: { graphql: 'STORE_UNAVAILABLE', httpStatus: 503, retryable: true },
  MIGRATION_FAILED: { graphql: 'MIGRATION_FAILED', httpStatus: 500, retryable: false },
  ABORTED: { graphql: 'ABORTED', httpStatus: 499, retryable: true },
  INTERNAL: { graphql: 'INTERNAL_SERVER_ERROR', httpStatus: 500, retryable: false },
  // The embedding server refused the request itself (bad key, unknown model): retrying cannot help.
  EMBEDDER_REQUEST_REJECTED: { graphql: 'EMBEDDER_REQUEST_REJECTED', httpStatus: 502, retryable: false },
  // Serialization failure or deadlock: the same transaction run again normally succeeds.
  TRANSACTION_CONFLICT: { graphql: 'TRANSACTION_CONFLICT', httpStatus: 409, retryable: true },
  RERANKER_UNAVAILABLE: { graphql: 'RERANKER_UNAVAILABLE', httpStatus: 503, retryable: true },
  LLM_UNAVAILABLE: { graphql: 'LLM_UNAVAILABLE', httpStatus: 503, retryable: true },
  // The chat server refused the request itself (bad key, unknown model): retrying cannot help.
  LLM_REQUEST_REJECTED: { graphql: 'LLM_REQUEST_REJECTED', httpStatus: 502, retryable: false },
  TOOL_NOT_ALLOWED: { graphql: 'TOOL_NOT_ALLOWED', httpStatus: 403, retryable: false },
  TOOL_FAILED: { graphql: 'TOOL_FAILED', httpStatus: 422, retryable: false },
  TOOL_TIMEOUT: { graphql: 'TOOL_TIMEOUT', httpStatus: 504, retryable: true },
  // A fetch that would reach a private, loopback, link-local or metadata address, or a domain
  // off the allowlist: never retried, whatever the redirect or DNS answer.
  FETCH_BLOCKED: { graphql: 'FETCH_BLOCKED', httpStatus: 403, retryable: false },
  WORKSPACE_NOT_FOUND: { graphql: 'WORKSPACE_NOT_FOUND', httpStatus: 404, retryable: false },
  // A GraphQL document over the depth, alias, token or cost limits.
  QUERY_TOO_COMPLEX: { graphql: 'QUERY_TOO_COMPLEX', httpStatus: 400, retryable: false },
  // Another agentic-rag API a command talks to (rag:eval --endpoint) did not answer usefully.
  UPSTREAM_UNAVAILABLE: { graphql: 'UPSTREAM_UNAVAILABLE', httpStatus: 502, retryable: true },
  // No API key, or one that is unknown, malformed or revoked: the same answer for all four.
  UNAUTHENTICATED: { graphql: 'UNAUTHENTICATED', httpStatus: 401, retryable: false },
  // The key is valid but its role does not allow the operation.
  FORBIDDEN: { graphql: 'FORBIDDEN', httpStatus: 403, retryable: false },
  // The key spent its request budget; details.retryAfterSeconds says when to come back.
  RATE_LIMITED: { graphql: 'RATE_LIMITED', httpStatus: 429, retryable: true },
  // INGEST_SECRETS=refuse and the document holds a credential: it is not stored.
  SECRET_REFUSED: { graphql: 'SECRET_REFUSED', httpStatus: 422, retryable: false },
  // A source path (or a symlink in it) resolves outside the folder ingestion may read.
  SOURCE_OUTSIDE_ROOT: { graphql: 'SOURCE_OUTSIDE_ROOT', httpStatus: 403, retryable: false },
  // A queued ingest whose document was deleted or asked for other bytes after it was queued:
  // it stores nothing, and its job completes saying so.
  SUPERSEDED: { graphql: 'SUPERSEDED', httpStatus: 409, retryable: false },
  // The embedded data directory cannot be opened as it is; the message says how to recover it.
  DATA_DIR_DAMAGED: { graphql: 'DATA_DIR_DAMAGED', httpStatus: 503, retryable: false },
  // A request field of the REST search contract fails its check: that contract's own name for
  // what every other surface calls INVALID_INPUT (docs/rest-contract.md).
  INVALID_PARAMETER: { graphql: 'BAD_USER_INPUT', httpStatus: 400, retryable: false },
  // A crawl's start URL that the site's robots.txt keeps us out of: asking again will not help.
  ROBOTS_DISALLOWED: { graphql: 'ROBOTS_DISALLOWED', httpStatus: 403, retryable: false },
  // The chat model's reply was not the JSON asked for, even when asked again: a retry of the
  // same job rarely helps, and the caller falls back to its model-free path.
  LLM_OUTPUT_INVALID: { graphql: 'LLM_OUTPUT_INVALID', httpStatus: 502, retryable: false },
  // A crawled page over the crawl's byte limit: dropped as soon as the limit is passed.
  PAGE_TOO_LARGE: { graphql: 'PAGE_TOO_LARGE', httpStatus: 413, retryable: false },
  // A PDF or .docx over the size or page limit of one document: checked before it is parsed.
  FILE_TOO_LARGE: { graphql: 'FILE_TOO_LARGE', httpStatus: 413, retryable: false },
  // A PDF that needs a password to open: the same bytes will never parse, so no retry.
  DOCUMENT_ENCRYPTED: { graphql: 'DOCUMENT_ENCRYPTED', httpStatus: 422, retryable: false },
};

export interface RagErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

export class RagError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: RagErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RagError';
    this.code = code;
    this.details = options.details;
  }

  get retryable(): boolean {
    return ERROR_CODE_INFO[this.code].retryable;
  }
}

export function isRagError(error: unknown): error is RagError {
  return error instanceof RagError;
}

/** Wraps anything thrown into a RagError, keeping the original as `cause`. */
export function toRagError(error: unknown, fallback: ErrorCode = ErrorCode.INTERNAL): RagError {
  if (isRagError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new RagError(fallback, message, { cause: error });
}
