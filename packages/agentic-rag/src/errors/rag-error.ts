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
  STATEMENT_CANCELLED: 'STATEMENT_CANCELLED',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorCodeInfo {
  /** GraphQL `extensions.code`. */
  graphql: string;
  httpStatus: number;
  /** Whether retrying the same call unchanged may succeed (drives queue retries). */
  retryable: boolean;
  /** What happened, for the error table in docs/errors.md (generated from this record). */
  meaning: string;
}

/** Exhaustive on purpose: adding a code without mapping it is a compile error. */
export const ERROR_CODE_INFO: Record<ErrorCode, ErrorCodeInfo> = {
  INVALID_INPUT: {
    graphql: 'BAD_USER_INPUT',
    httpStatus: 400,
    retryable: false,
    meaning:
      'A request field, argument or command-line option fails its check; the message names it and says what is accepted.',
  },
  INVALID_CONFIG: {
    graphql: 'INVALID_CONFIG',
    httpStatus: 500,
    retryable: false,
    meaning: 'An environment variable is malformed; the process stops at start with one line per variable.',
  },
  NOT_FOUND: {
    graphql: 'NOT_FOUND',
    httpStatus: 404,
    retryable: false,
    meaning: "The document, entity, job or key asked for does not exist in the key's workspace.",
  },
  RAG_DISABLED: {
    graphql: 'RAG_DISABLED',
    httpStatus: 503,
    retryable: false,
    meaning: 'AGENTIC_RAG_ENABLED=false: GraphQL and REST answer with this until it is turned back on.',
  },
  UNSUPPORTED_FILE_TYPE: {
    graphql: 'UNSUPPORTED_FILE_TYPE',
    httpStatus: 415,
    retryable: false,
    meaning: "No loader reads this file's extension or content type.",
  },
  FILE_UNREADABLE: {
    graphql: 'FILE_UNREADABLE',
    httpStatus: 422,
    retryable: false,
    meaning: 'The file could not be read (permissions, not a regular file, invalid encoding).',
  },
  PARSE_FAILED: {
    graphql: 'PARSE_FAILED',
    httpStatus: 422,
    retryable: false,
    meaning: 'The file was read but its format is broken (malformed JSON, YAML, OpenAPI, PDF or DOCX).',
  },
  EMBEDDER_UNAVAILABLE: {
    graphql: 'EMBEDDER_UNAVAILABLE',
    httpStatus: 503,
    retryable: true,
    meaning:
      'The embedding server is down or timed out; an ingest stops at the first document instead of failing every one.',
  },
  EMBEDDING_DIMENSION_MISMATCH: {
    graphql: 'EMBEDDING_DIMENSION_MISMATCH',
    httpStatus: 500,
    retryable: false,
    meaning:
      'The embedder returns vectors of another size than the store was created with: re-embed or pick the matching model.',
  },
  STORE_UNAVAILABLE: {
    graphql: 'STORE_UNAVAILABLE',
    httpStatus: 503,
    retryable: true,
    meaning: 'The database cannot be reached, or a call may have reached an embedded owner that went away.',
  },
  MIGRATION_FAILED: {
    graphql: 'MIGRATION_FAILED',
    httpStatus: 500,
    retryable: false,
    meaning: 'A schema migration failed; nothing after it ran and the process stops.',
  },
  ABORTED: {
    graphql: 'ABORTED',
    httpStatus: 499,
    retryable: true,
    meaning: 'The caller went away or cancelled (client disconnect, job cancel, shutdown).',
  },
  INTERNAL: {
    graphql: 'INTERNAL_SERVER_ERROR',
    httpStatus: 500,
    retryable: false,
    meaning: "A bug: logged with its stack and trace id, never shown to the client beyond 'internal error'.",
  },
  EMBEDDER_REQUEST_REJECTED: {
    graphql: 'EMBEDDER_REQUEST_REJECTED',
    httpStatus: 502,
    retryable: false,
    meaning:
      'The embedding server refused the request itself (bad key, unknown model): retrying cannot help.',
  },
  TRANSACTION_CONFLICT: {
    graphql: 'TRANSACTION_CONFLICT',
    httpStatus: 409,
    retryable: true,
    meaning: 'Serialization failure or deadlock: the same transaction run again normally succeeds.',
  },
  RERANKER_UNAVAILABLE: {
    graphql: 'RERANKER_UNAVAILABLE',
    httpStatus: 503,
    retryable: true,
    meaning: 'The cross-encoder reranking server is down or timed out.',
  },
  LLM_UNAVAILABLE: {
    graphql: 'LLM_UNAVAILABLE',
    httpStatus: 503,
    retryable: true,
    meaning:
      'The chat model server is down or timed out; answers fall back to extractive synthesis where they can.',
  },
  LLM_REQUEST_REJECTED: {
    graphql: 'LLM_REQUEST_REJECTED',
    httpStatus: 502,
    retryable: false,
    meaning: 'The chat server refused the request itself (bad key, unknown model): retrying cannot help.',
  },
  TOOL_NOT_ALLOWED: {
    graphql: 'TOOL_NOT_ALLOWED',
    httpStatus: 403,
    retryable: false,
    meaning: 'The planner asked for a tool this deployment or key does not allow.',
  },
  TOOL_FAILED: {
    graphql: 'TOOL_FAILED',
    httpStatus: 422,
    retryable: false,
    meaning: 'A tool ran and failed on its input.',
  },
  TOOL_TIMEOUT: {
    graphql: 'TOOL_TIMEOUT',
    httpStatus: 504,
    retryable: true,
    meaning: 'A tool did not finish within its time limit.',
  },
  FETCH_BLOCKED: {
    graphql: 'FETCH_BLOCKED',
    httpStatus: 403,
    retryable: false,
    meaning:
      'A fetch would reach a private, loopback, link-local or metadata address, or a domain off the allowlist: never retried, whatever the redirect or DNS answer.',
  },
  WORKSPACE_NOT_FOUND: {
    graphql: 'WORKSPACE_NOT_FOUND',
    httpStatus: 404,
    retryable: false,
    meaning: 'The workspace does not exist.',
  },
  QUERY_TOO_COMPLEX: {
    graphql: 'QUERY_TOO_COMPLEX',
    httpStatus: 400,
    retryable: false,
    meaning: 'A GraphQL document over the depth, alias, token or cost limits.',
  },
  UPSTREAM_UNAVAILABLE: {
    graphql: 'UPSTREAM_UNAVAILABLE',
    httpStatus: 502,
    retryable: true,
    meaning: 'Another agentic-rag API a command talks to (rag:eval --endpoint) did not answer usefully.',
  },
  UNAUTHENTICATED: {
    graphql: 'UNAUTHENTICATED',
    httpStatus: 401,
    retryable: false,
    meaning: 'No API key, or one that is unknown, malformed or revoked: the same answer for all four.',
  },
  FORBIDDEN: {
    graphql: 'FORBIDDEN',
    httpStatus: 403,
    retryable: false,
    meaning: 'The key is valid but its role or workspace does not allow the operation.',
  },
  RATE_LIMITED: {
    graphql: 'RATE_LIMITED',
    httpStatus: 429,
    retryable: true,
    meaning:
      'The key spent its request budget; Retry-After and details.retryAfterSeconds say when to come back.',
  },
  SECRET_REFUSED: {
    graphql: 'SECRET_REFUSED',
    httpStatus: 422,
    retryable: false,
    meaning: 'INGEST_SECRETS=refuse and the document holds a credential: it is not stored.',
  },
  SOURCE_OUTSIDE_ROOT: {
    graphql: 'SOURCE_OUTSIDE_ROOT',
    httpStatus: 403,
    retryable: false,
    meaning: 'A source path (or a symlink in it) resolves outside the folder ingestion may read.',
  },
  SUPERSEDED: {
    graphql: 'SUPERSEDED',
    httpStatus: 409,
    retryable: false,
    meaning:
      'A queued ingest whose document was deleted or asked for other bytes after it was queued: it stores nothing, and its job completes saying so.',
  },
  DATA_DIR_DAMAGED: {
    graphql: 'DATA_DIR_DAMAGED',
    httpStatus: 503,
    retryable: false,
    meaning: 'The embedded data directory cannot be opened as it is; the message says how to recover it.',
  },
  INVALID_PARAMETER: {
    graphql: 'BAD_USER_INPUT',
    httpStatus: 400,
    retryable: false,
    meaning:
      "A field of the REST search contract fails its check: that contract's own name for what every other surface calls INVALID_INPUT (docs/rest-contract.md).",
  },
  ROBOTS_DISALLOWED: {
    graphql: 'ROBOTS_DISALLOWED',
    httpStatus: 403,
    retryable: false,
    meaning: "A crawl's start URL that the site's robots.txt keeps us out of: asking again will not help.",
  },
  LLM_OUTPUT_INVALID: {
    graphql: 'LLM_OUTPUT_INVALID',
    httpStatus: 502,
    retryable: false,
    meaning:
      "The chat model's reply was not the JSON asked for, even when asked again; the caller falls back to its model-free path.",
  },
  PAGE_TOO_LARGE: {
    graphql: 'PAGE_TOO_LARGE',
    httpStatus: 413,
    retryable: false,
    meaning: "A crawled page over the crawl's byte limit: dropped as soon as the limit is passed.",
  },
  FILE_TOO_LARGE: {
    graphql: 'FILE_TOO_LARGE',
    httpStatus: 413,
    retryable: false,
    meaning: 'A PDF or .docx over the size or page limit of one document: checked before it is parsed.',
  },
  DOCUMENT_ENCRYPTED: {
    graphql: 'DOCUMENT_ENCRYPTED',
    httpStatus: 422,
    retryable: false,
    meaning: 'A PDF that needs a password to open: the same bytes will never parse.',
  },
  STATEMENT_CANCELLED: {
    graphql: 'STATEMENT_CANCELLED',
    httpStatus: 503,
    retryable: true,
    meaning:
      'The database cancelled a statement: its statement_timeout ran out, or an operator cancelled it. Nothing was written; the same call at a quieter moment, or a narrower one, may succeed.',
  },
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

/**
 * Wraps anything thrown into a RagError, keeping the original as `cause`. An AbortError (what
 * `signal.throwIfAborted()` and an aborted fetch throw when a client went away) is ABORTED, not
 * the fallback: a cancelled call is not a bug.
 */
export function toRagError(error: unknown, fallback: ErrorCode = ErrorCode.INTERNAL): RagError {
  if (isRagError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { name?: unknown } | null)?.name === 'AbortError') {
    return new RagError(ErrorCode.ABORTED, `the call was cancelled: ${message}`, { cause: error });
  }
  return new RagError(fallback, message, { cause: error });
}
