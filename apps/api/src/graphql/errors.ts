import { unwrapResolverError } from '@apollo/server/errors';
import { ERROR_CODE_INFO, ErrorCode, isRagError, type Logger } from '@agentic-rag/core';
import type { GraphQLFormattedError } from 'graphql';
import { requestScope } from '../request-telemetry.js';

/** Our codes whose messages describe the server's insides (SQL, config): logged, never shown. */
const MASKED: ReadonlySet<string> = new Set([
  ErrorCode.INTERNAL,
  ErrorCode.INVALID_CONFIG,
  ErrorCode.MIGRATION_FAILED,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
]);

/** Codes Apollo and graphql-js produce for bad requests: safe to show as they are. */
const CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'QUERY_TOO_COMPLEX',
]);

/**
 * Every error a client sees has a stable `extensions.code` and a message written for it; an
 * unexpected error becomes INTERNAL_SERVER_ERROR with a generic message (the real one is logged),
 * and no error ever carries a stack trace.
 */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const base = {
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
    };
    if (isRagError(original) && !MASKED.has(original.code)) {
      return {
        ...base,
        message: original.message,
        extensions: {
          code: ERROR_CODE_INFO[original.code].graphql,
          ...(original.details ? { details: original.details } : {}),
        },
      };
    }
    const code = String(formatted.extensions?.code ?? '');
    if (formatted.extensions?.limit) {
      return { ...base, message: formatted.message, extensions: { code: 'QUERY_TOO_COMPLEX' } };
    }
    // graphql-js words this "more that N tokens"; clients get a message of ours.
    const tokens = /Document contains more (?:than|that) (\d+) tokens/.exec(formatted.message);
    if (tokens) {
      return {
        message: `query has more than ${tokens[1]} tokens`,
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      };
    }
    if (CLIENT_CODES.has(code)) return { ...base, message: formatted.message, extensions: { code } };
    // graphql-js stops coercing variables after 50 errors and says so without a code.
    if (formatted.message.startsWith('Too many errors processing variables')) {
      return { message: 'too many invalid variables', extensions: { code: 'BAD_USER_INPUT' } };
    }
    // Apollo calls formatError without the request's context: the request scope has its logger.
    (requestScope.getStore()?.logger ?? logger).error('graphql request failed', {
      event: 'graphql-error',
      error: original instanceof Error ? original : new Error(String(original)),
      path: formatted.path?.join('.'),
    });
    return { ...base, message: 'internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}
